// SHA-256 for the verification layer.
//
// Both backends produce identical digests; only the speed differs, and which one
// is faster for a given input size depends on where the code runs:
// - node 20 (2 cores): the pure-JS implementation finishes a 1 KiB input in about
//   0.012 ms, while a WebCrypto digest costs 0.05–0.1 ms for any small input (the
//   promise and the hop into native code dominate). From a few KiB on, WebCrypto
//   wins by a wide margin (64 KiB: 0.16 ms vs 0.82 ms; 1 MiB: 1 ms vs 13 ms).
// - Chromium (the extension's service worker and its pages): a WebCrypto digest of
//   a small input costs about 0.004 ms, so it is already faster from about 100
//   bytes on (256 B: 0.0035 ms vs 0.006 ms; 1 KiB: 0.004 ms vs 0.019 ms).
// So inputs below webCryptoMinBytesFor(the environment) are hashed in JS, larger
// ones with crypto.subtle when it exists. The threshold is chosen once, from what
// the environment says it is (no timing), so the choice is deterministic.

import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { subtle } from './subtle';

/** Threshold under node, and wherever the engine is not recognised (measured under node 20). */
export const NODE_WEBCRYPTO_MIN_BYTES = 8 * 1024;
/** Threshold in Chromium-based browsers (service worker and extension pages). */
export const CHROMIUM_WEBCRYPTO_MIN_BYTES = 256;

function isRecord(v: unknown): v is Record<string, unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null;
}

/**
 * The input size from which WebCrypto is the faster SHA-256 backend in the environment whose
 * global object is `g`: node (process.versions.node) keeps the node figure; a Chromium-based
 * browser or worker (navigator.userAgentData brands, else "Chrome/" in navigator.userAgent)
 * gets the Chromium figure; any other engine, not measured, keeps the node figure.
 */
export function webCryptoMinBytesFor(g: unknown): number {
  if (!isRecord(g)) return NODE_WEBCRYPTO_MIN_BYTES;
  const proc = g.process;
  if (isRecord(proc) && isRecord(proc.versions) && typeof proc.versions.node === 'string') return NODE_WEBCRYPTO_MIN_BYTES;
  const nav = g.navigator;
  if (!isRecord(nav)) return NODE_WEBCRYPTO_MIN_BYTES;
  const brands = isRecord(nav.userAgentData) ? nav.userAgentData.brands : undefined;
  if (Array.isArray(brands) && brands.some((b) => isRecord(b) && b.brand === 'Chromium')) return CHROMIUM_WEBCRYPTO_MIN_BYTES;
  if (typeof nav.userAgent === 'string' && /Chrom(e|ium)\/\d/.test(nav.userAgent)) return CHROMIUM_WEBCRYPTO_MIN_BYTES;
  return NODE_WEBCRYPTO_MIN_BYTES;
}

/** Inputs at least this long go to WebCrypto when it is available (chosen once for this environment). */
export const WEBCRYPTO_MIN_BYTES: number = webCryptoMinBytesFor(globalThis);

/** SHA-256 of the bytes, synchronous (pure JS). */
export { nobleSha256 as sha256Sync };

/** SHA-256 of the bytes, with WebCrypto from `webCryptoMinBytes` on (when it exists), else in JS. */
export async function sha256WithThreshold(bytes: Uint8Array, webCryptoMinBytes: number): Promise<Uint8Array> {
  const s = bytes.length >= webCryptoMinBytes ? subtle() : null;
  if (s !== null) {
    try {
      // WebCrypto refuses views on SharedArrayBuffer: only those are copied into a fresh
      // ArrayBuffer. digest() itself takes a copy of the bytes when called, so the caller's
      // buffer stays untouched either way (copying here cost ~35 us per 64 KiB under node).
      const input = bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
      const digest = await s.digest('SHA-256', input);
      return new Uint8Array(digest);
    } catch {
      // Fall through to the JS implementation.
    }
  }
  return nobleSha256(bytes);
}

/**
 * A SHA-256 function the engine may be given with its I/O (EngineDeps.sha256): node's native
 * hash under node, where lib/ may not import it; by default the function below.
 */
export type Sha256 = (bytes: Uint8Array) => Promise<Uint8Array>;

/** SHA-256 of the bytes, using the faster backend for the input size in this environment. */
export function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return sha256WithThreshold(bytes, WEBCRYPTO_MIN_BYTES);
}

/** Lowercase hex of the bytes. */
export { bytesToHex as toHex } from '@noble/hashes/utils.js';
