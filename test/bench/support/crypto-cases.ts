// SHA-256 and Ed25519 verification, WebCrypto against the JS backend, for 1 KiB, 64 KiB and
// 256 KiB inputs. Plain module with no node: imports: the same code runs under node and,
// bundled, inside the extension's service worker.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { sha256, sha256Sync, WEBCRYPTO_MIN_BYTES } from '../../../lib/verify/sha256';
import { ed25519Backend, verifyEd25519, verifyWithNoble, verifyWithWebCrypto } from '../../../lib/verify/ed25519';

ed.hashes.sha512 = sha512;

export const SIZES = [1024, 64 * 1024, 256 * 1024] as const;

export interface CryptoRow {
  op: 'sha256' | 'ed25519-verify';
  size: number;
  backend: string;
  /** Per-operation times (ms), one per batch. */
  samples: number[];
  ok: boolean;
}

export interface CryptoResult {
  env: string;
  ed25519Backend: string;
  webCryptoMinBytes: number;
  rows: CryptoRow[];
}

function input(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = 0x12345678;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('no WebCrypto here');
  return s;
}

/** Per-op ms for one batch of `n` sequential calls. */
async function batch(n: number, op: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await op();
  return (performance.now() - t0) / n;
}

/** How many calls make a batch of at least `targetMs`. */
async function calibrate(op: () => Promise<unknown> | unknown, targetMs: number): Promise<number> {
  let n = 1;
  for (;;) {
    const per = await batch(n, op);
    if (per * n >= targetMs || n >= 4096) return Math.max(1, Math.ceil(targetMs / Math.max(per, 1e-4)));
    n *= 4;
  }
}

export async function runCryptoCases(env: string, rounds = 12, targetMs = 8): Promise<CryptoResult> {
  const rows: CryptoRow[] = [];
  const s = subtle();
  const secret = new Uint8Array(32).fill(7);
  const pub = ed.getPublicKey(secret);
  const key = await s.importKey('raw', Uint8Array.from(pub), { name: 'Ed25519' }, false, ['verify']);

  for (const size of SIZES) {
    const msg = input(size);
    const expected = sha256Sync(msg);
    const same = (d: Uint8Array): boolean => d.length === expected.length && d.every((b, i) => b === expected[i]);
    const shaCases: [string, () => Promise<boolean>][] = [
      ['WebCrypto subtle.digest', async () => same(new Uint8Array(await s.digest('SHA-256', msg)))],
      ['@noble/hashes', async () => same(sha256Sync(msg))],
      ['product sha256()', async () => same(await sha256(msg))],
    ];
    const sig = Uint8Array.from(ed.sign(msg, secret));
    const edCases: [string, () => Promise<boolean>][] = [
      ['WebCrypto subtle.verify (bare)', () => s.verify({ name: 'Ed25519' }, key, sig, msg)],
      ['WebCrypto + strict checks', () => verifyWithWebCrypto(pub, sig, msg)],
      ['@noble + strict checks', async () => verifyWithNoble(pub, sig, msg)],
      ['product verifyEd25519()', () => verifyEd25519(pub, sig, msg)],
    ];
    for (const [op, cases] of [
      ['sha256', shaCases],
      ['ed25519-verify', edCases],
    ] as const) {
      const sizes: number[] = [];
      const oks: boolean[] = [];
      for (const [, fn] of cases) {
        oks.push((await fn()) === true);
        sizes.push(await calibrate(fn, targetMs));
      }
      const samples = cases.map(() => [] as number[]);
      for (let r = 0; r < rounds; r++) {
        const order = cases.map((_, i) => i);
        if (r % 2 === 1) order.reverse();
        for (const i of order) (samples[i] as number[]).push(await batch(sizes[i] as number, (cases[i] as [string, () => Promise<boolean>])[1]));
      }
      cases.forEach(([backend], i) => {
        rows.push({ op, size, backend, samples: samples[i] as number[], ok: oks[i] === true });
      });
    }
  }
  return { env, ed25519Backend: await ed25519Backend(), webCryptoMinBytes: WEBCRYPTO_MIN_BYTES, rows };
}
