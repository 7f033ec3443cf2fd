// Pure Ed25519 verification (RFC 8032 §5.1.7), strict and cofactorless.
//
// The rules, identical on both backends because they are checked here before
// any backend runs:
// - public key: 32 bytes, canonical encoding (y < p, no x = 0 with the sign
//   bit set), decodes to a curve point, and is not one of the 8 small-order
//   points (in any encoding);
// - signature: 64 bytes, S < L (so a malleated S + L fails), R a canonical
//   point encoding;
// - equation: the cofactorless check [S]B = R + [k]A, compared on the
//   encoding of R. WebCrypto (Chromium, node) does exactly this; the JS path
//   below does the same with the point arithmetic of @noble/ed25519 (whose own
//   `verify` uses the cofactored equation, which would accept signatures whose
//   R carries a small-order component).
//
// WebCrypto is used when it supports Ed25519 and passes known-answer checks
// (a valid signature verifies, a wrong message and a signature whose R has a
// small-order component do not; detected once); otherwise the JS path runs.
// Nothing here throws.

import { Point } from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { decodeBase64Strict } from './base64';
import { subtle } from './subtle';

/** The field prime 2^255 - 19. */
const P = 2n ** 255n - 19n;
/** The group order L. */
export const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n;

export type KeyParse =
  | { ok: true; key: Uint8Array }
  | {
      ok: false;
      code: 'key-base64' | 'key-length' | 'key-non-canonical' | 'key-small-order' | 'key-invalid-point';
      message: string;
    };

export type SignatureCheck = { ok: true } | { ok: false; code: string; message: string };

function numberLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/** L in 32 little-endian bytes. */
const L_BYTES = bytesLE(ED25519_L);

function bytesLE(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** Whether the 32 little-endian bytes at `at` of `bytes` are a number below L: compared byte by byte, most significant first. */
export function scalarBelowL(bytes: Uint8Array, at = 0): boolean {
  for (let i = 31; i >= 0; i--) {
    const a = bytes[at + i] as number;
    const b = L_BYTES[i] as number;
    if (a !== b) return a < b;
  }
  return false;
}

/**
 * The y of a point encoding (sign bit cleared) compared with p = 2^255 - 19 and with p - 1, on the
 * bytes: y >= p exactly when the top 31 bytes are all ones (0x7f, then 0xff) and the lowest is at
 * least 0xed. Returns -1 below p - 1, 0 for p - 1, 1 for y >= p.
 */
function yAgainstP(bytes: Uint8Array): -1 | 0 | 1 {
  if (((bytes[31] as number) & 0x7f) !== 0x7f) return -1;
  for (let i = 30; i >= 1; i--) if (bytes[i] !== 0xff) return -1;
  const low = bytes[0] as number;
  return low >= 0xed ? 1 : low === 0xec ? 0 : -1;
}

/** Whether a point encoding's y (sign bit cleared) is at least p: the encoding is then not canonical. */
export function encodedYAtLeastP(bytes: Uint8Array): boolean {
  return yAgainstP(bytes) === 1;
}

/** Whether a point encoding's y (sign bit cleared) is 1. */
function encodedYIsOne(bytes: Uint8Array): boolean {
  return bytes[0] === 1 && ((bytes[31] as number) & 0x7f) === 0 && bytes.subarray(1, 31).every((b) => b === 0);
}

/** The y coordinate of a point encoding (sign bit cleared), unreduced. */
function encodedY(bytes: Uint8Array): bigint {
  const copy = Uint8Array.from(bytes);
  copy[31] = (copy[31] as number) & 0x7f;
  return numberLE(copy);
}

function signBit(bytes: Uint8Array): boolean {
  return ((bytes[31] as number) & 0x80) !== 0;
}

/** Lenient decode (any y below 2^255); null when the bytes are not a curve point. */
function decodeAny(bytes: Uint8Array): Point | null {
  try {
    return Point.fromBytes(bytes, true);
  } catch {
    return null;
  }
}

/** Key rules on raw bytes (length already known to be 32 or checked here). */
export function checkPublicKeyBytes(key: Uint8Array): KeyParse {
  if (!(key instanceof Uint8Array) || key.length !== 32) return keyRefused('key-length', `public key must be 32 bytes, got ${key instanceof Uint8Array ? key.length : 'none'}`);
  const point = decodeAny(key);
  if (point === null) return keyRefused('key-invalid-point', 'public key does not decode to a curve point');
  if (point.isSmallOrder()) return keyRefused('key-small-order', 'public key is a small-order point');
  if (encodedY(key) >= P) return keyRefused('key-non-canonical', 'public key encoding is not canonical (y >= p)');
  if (point.x === 0n && signBit(key)) return keyRefused('key-non-canonical', 'public key encoding is not canonical (x = 0 with sign bit)');
  return { ok: true, key: Uint8Array.from(key) };
}

function keyRefused(code: Extract<KeyParse, { ok: false }>['code'], message: string): KeyParse {
  return { ok: false, code, message };
}

/** Parses a standard-base64 raw 32-byte Ed25519 public key under the strict rules. */
export function parsePublicKey(b64: string): KeyParse {
  const bytes = decodeBase64Strict(b64);
  if (bytes === null) return keyRefused('key-base64', 'public key is not valid standard base64');
  if (bytes.length !== 32) return keyRefused('key-length', `public key must be 32 bytes, got ${bytes.length}`);
  // A key that passed the rules before passes them again (they depend on the bytes alone).
  return keyIsValid(bytes) ? { ok: true, key: bytes } : checkPublicKeyBytes(bytes);
}

/** Signature shape rules: 64 bytes, S < L, R a canonical point encoding. */
function checkSignatureBytes(signature: Uint8Array): string | null {
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return 'signature must be 64 bytes';
  const s = numberLE(signature.subarray(32, 64));
  if (s >= ED25519_L) return 'signature scalar S is not below the group order (non-canonical)';
  const r = signature.subarray(0, 32);
  if (encodedY(r) >= P) return 'signature R is not a canonical encoding (y >= p)';
  const rp = decodeAny(r);
  if (rp === null) return 'signature R is not a curve point';
  if (rp.x === 0n && signBit(r)) return 'signature R is not a canonical encoding (x = 0 with sign bit)';
  return null;
}

// Keys that passed checkPublicKeyBytes. Every skill of an origin is signed under the same key:
// the point decoding behind the key rules (the costliest part of the strict checks) then runs
// once per key instead of once per signature. Validity depends on the bytes alone.
const validKeys = new Set<string>();
const VALID_KEYS_MAX = 64;

/** Makes room in a bounded cache: when it is full, its oldest entry goes. */
function dropOldestWhenFull(cache: Set<string> | Map<string, unknown>, max: number): void {
  if (cache.size < max) return;
  const first = cache.keys().next();
  if (first.done !== true) cache.delete(first.value);
}

function keyIsValid(key: Uint8Array): boolean {
  if (!(key instanceof Uint8Array) || key.length !== 32) return false;
  const id = cacheId(key);
  if (validKeys.has(id)) return true;
  if (!checkPublicKeyBytes(key).ok) return false;
  dropOldestWhenFull(validKeys, VALID_KEYS_MAX);
  validKeys.add(id);
  return true;
}

/**
 * The signature rules without decoding R: 64 bytes, S < L, R's y below p, and no x = 0 point
 * (y = 1 or p - 1) with the sign bit set. Whether R is a curve point at all is not asked here:
 * an R off the curve never equals the encoding of [S]B - [k]A, so the equation refuses it,
 * and `whyInvalid` names the cause only once the equation failed. Decoding R (a square root in
 * the field) was the largest part of the strict checks' cost per signature.
 */
function signatureShape(signature: Uint8Array): string | null {
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return 'signature must be 64 bytes';
  // The same comparisons as checkSignatureBytes, on the bytes instead of as big integers.
  if (!scalarBelowL(signature, 32)) return 'signature scalar S is not below the group order (non-canonical)';
  const r = signature.subarray(0, 32);
  const y = yAgainstP(r);
  if (y === 1) return 'signature R is not a canonical encoding (y >= p)';
  // x = 0 exactly when y² = 1 (y = 1 or p - 1): the full check says which rule such an R breaks.
  if (signBit(r) && (y === 0 || encodedYIsOne(r))) return checkSignatureBytes(signature);
  return null;
}

/** The message for a well-shaped signature that failed the equation. */
function whyInvalid(signature: Uint8Array): string {
  return checkSignatureBytes(signature) ?? 'signature does not verify under the key';
}

function preCheck(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean {
  if (!(message instanceof Uint8Array)) return false;
  if (!keyIsValid(publicKey)) return false;
  return signatureShape(signature) === null;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

/** Cofactorless equation in JS: encode([S]B - [k]A) must equal R. Assumes preCheck passed. */
function nobleEquation(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean {
  const r = signature.subarray(0, 32);
  const s = numberLE(signature.subarray(32, 64));
  const a = Point.fromBytes(publicKey, false);
  const k = numberLE(sha512(concatBytes(r, publicKey, message))) % ED25519_L;
  const rCheck = Point.BASE.multiply(s, false).subtract(a.multiply(k, false));
  return equalBytes(rCheck.toBytes(), r);
}

/** Strict verification with the JS backend. Exported for tests. */
export function verifyWithNoble(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean {
  try {
    if (!preCheck(publicKey, signature, message)) return false;
    return nobleEquation(publicKey, signature, message);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// WebCrypto backend
// ---------------------------------------------------------------------------

const keyCache = new Map<string, CryptoKey>();
const KEY_CACHE_MAX = 64;

/** The key's bytes as a string of code units 0-255 (keys are 32 bytes). */
function cacheId(key: Uint8Array): string {
  return String.fromCharCode(...key);
}

async function importKey(s: SubtleCrypto, key: Uint8Array): Promise<CryptoKey> {
  const id = cacheId(key);
  const hit = keyCache.get(id);
  if (hit !== undefined) return hit;
  const imported = await s.importKey('raw', Uint8Array.from(key), { name: 'Ed25519' }, false, ['verify']);
  dropOldestWhenFull(keyCache, KEY_CACHE_MAX);
  keyCache.set(id, imported);
  return imported;
}

async function webCryptoEquation(s: SubtleCrypto, publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await importKey(s, publicKey);
  return s.verify({ name: 'Ed25519' }, key, Uint8Array.from(signature), Uint8Array.from(message));
}

/**
 * Strict verification with WebCrypto. Exported for tests. Returns false when
 * WebCrypto has no Ed25519 (callers use `verifyEd25519`, which falls back).
 */
export async function verifyWithWebCrypto(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  try {
    if (!preCheck(publicKey, signature, message)) return false;
    const s = subtle();
    if (s === null) return false;
    return await webCryptoEquation(s, publicKey, signature, message);
  } catch {
    return false;
  }
}

// RFC 8032 §7.1 TEST 1: a known answer used to check that WebCrypto works.
const KAT_KEY = hexToBytes('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
const KAT_SIG = hexToBytes('e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b');

// The same key and empty message, signed with R' = R + T for an order-8 point
// T (S recomputed). A cofactored verifier accepts it; RFC 8032 must not.
const KAT_TORSION_SIG = hexToBytes('e87997aa4252662127e6038862cb45483f6abf88fac62efe41e9e2a76f24444310aaecf060159cb6f1f8f9dfdcbbb17388aeac2d1bcf0322c8075e84357f3d0e');

let backendPromise: Promise<'webcrypto' | 'noble'> | null = null;

async function detectBackend(): Promise<'webcrypto' | 'noble'> {
  const s = subtle();
  if (s === null) return 'noble';
  try {
    const good = await webCryptoEquation(s, KAT_KEY, KAT_SIG, new Uint8Array(0));
    const bad = await webCryptoEquation(s, KAT_KEY, KAT_SIG, new Uint8Array([0x72]));
    const torsion = await webCryptoEquation(s, KAT_KEY, KAT_TORSION_SIG, new Uint8Array(0));
    return good === true && bad === false && torsion === false ? 'webcrypto' : 'noble';
  } catch {
    return 'noble';
  }
}

/** Which backend `verifyEd25519` uses here (detected once). */
export function ed25519Backend(): Promise<'webcrypto' | 'noble'> {
  if (backendPromise === null) backendPromise = detectBackend();
  return backendPromise;
}

/** Strict Ed25519 verification; false on any malformed input. Never throws. */
export async function verifyEd25519(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  try {
    if (!preCheck(publicKey, signature, message)) return false;
    return await verifyPrechecked(publicKey, signature, message);
  } catch {
    return false;
  }
}

/** The equation on the chosen backend, for inputs that already passed preCheck. */
async function verifyPrechecked(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  try {
    if ((await ed25519Backend()) === 'webcrypto') {
      const s = subtle();
      if (s !== null) {
        try {
          return await webCryptoEquation(s, publicKey, signature, message);
        } catch {
          // Fall back to the JS path below.
        }
      }
    }
    return nobleEquation(publicKey, signature, message);
  } catch {
    return false;
  }
}

/**
 * Verifies a base64 signature under a base64 raw key. Malformed base64 and
 * wrong lengths give a coded failure, never a throw.
 */
export async function verifySignatureB64(keyB64: string, sigB64: string, message: Uint8Array): Promise<SignatureCheck> {
  const rawKey = typeof keyB64 === 'string' ? decodeBase64Strict(keyB64) : null;
  const key: KeyParse = rawKey !== null && keyIsValid(rawKey) ? { ok: true, key: rawKey } : parsePublicKey(keyB64);
  if (!key.ok) return { ok: false, code: key.code, message: key.message };
  const sig = typeof sigB64 === 'string' ? decodeBase64Strict(sigB64) : null;
  if (sig === null) return { ok: false, code: 'signature-base64', message: 'signature is not valid standard base64' };
  if (sig.length !== 64) return { ok: false, code: 'signature-length', message: `signature must be 64 bytes, got ${sig.length}` };
  const shape = signatureShape(sig);
  if (shape !== null) return { ok: false, code: 'signature-invalid', message: shape };
  // Key and signature rules were checked just above: go straight to the equation.
  const valid = message instanceof Uint8Array && (await verifyPrechecked(key.key, sig, message));
  return valid ? { ok: true } : { ok: false, code: 'signature-invalid', message: whyInvalid(sig) };
}
