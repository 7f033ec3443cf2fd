// Backend detection: WebCrypto is used only when it has Ed25519 and answers the
// known-answer checks correctly; otherwise the JS path gives the same results.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as ed from '@noble/ed25519';
import { hex } from './corpus';
import { RFC8032_VECTORS } from './rfc8032-vectors';

const realCrypto = globalThis.crypto;

type VerifyModule = typeof import('../../../lib/verify/ed25519');
type ShaModule = typeof import('../../../lib/verify/sha256');

async function freshModules(subtle: Partial<SubtleCrypto> | null): Promise<{ ed25519: VerifyModule; sha: ShaModule }> {
  vi.resetModules();
  vi.stubGlobal('crypto', subtle === null ? {} : { subtle, getRandomValues: realCrypto.getRandomValues.bind(realCrypto) });
  const ed25519 = await import('../../../lib/verify/ed25519');
  const sha = await import('../../../lib/verify/sha256');
  return { ed25519, sha };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

async function expectStrictResults(m: VerifyModule): Promise<void> {
  for (const v of RFC8032_VECTORS) {
    expect(await m.verifyEd25519(hex(v.public), hex(v.signature), hex(v.message)), v.name).toBe(true);
    expect(await m.verifyEd25519(hex(v.public), hex(v.signature), new Uint8Array([1, 2])), v.name).toBe(false);
  }
  // A small-order key with the classic forgery stays rejected.
  const identity = hex('0100000000000000000000000000000000000000000000000000000000000000');
  const forged = new Uint8Array(64);
  forged.set(identity, 0);
  expect(await m.verifyEd25519(identity, forged, new Uint8Array([9]))).toBe(false);
}

describe('backend detection', () => {
  it('the torsion known answer separates cofactored from strict verification', async () => {
    const key = hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const sig = hex('e87997aa4252662127e6038862cb45483f6abf88fac62efe41e9e2a76f24444310aaecf060159cb6f1f8f9dfdcbbb17388aeac2d1bcf0322c8075e84357f3d0e');
    expect(await ed.verifyAsync(sig, new Uint8Array(0), key, { zip215: false })).toBe(true);
    const m = await import('../../../lib/verify/ed25519');
    expect(m.verifyWithNoble(key, sig, new Uint8Array(0))).toBe(false);
    expect(await m.verifyWithWebCrypto(key, sig, new Uint8Array(0))).toBe(false);
    expect(await m.verifyEd25519(key, sig, new Uint8Array(0))).toBe(false);
  });

  it('falls back to JS when there is no crypto.subtle', async () => {
    const { ed25519, sha } = await freshModules(null);
    expect(await ed25519.ed25519Backend()).toBe('noble');
    await expectStrictResults(ed25519);
    const big = new Uint8Array(sha.WEBCRYPTO_MIN_BYTES * 2);
    expect(sha.toHex(await sha.sha256(big))).toBe(sha.toHex(sha.sha256Sync(big)));
  });

  it('falls back to JS when WebCrypto has no Ed25519', async () => {
    const subtle: Partial<SubtleCrypto> = {
      importKey: () => Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError')),
      verify: () => Promise.reject(new Error('unreachable')),
      digest: realCrypto.subtle.digest.bind(realCrypto.subtle),
    };
    const { ed25519 } = await freshModules(subtle);
    expect(await ed25519.ed25519Backend()).toBe('noble');
    await expectStrictResults(ed25519);
  });

  it('refuses a WebCrypto that answers wrongly (accepts everything) and stays strict', async () => {
    const real = realCrypto.subtle;
    const subtle: Partial<SubtleCrypto> = {
      importKey: real.importKey.bind(real) as SubtleCrypto['importKey'],
      verify: () => Promise.resolve(true),
      digest: real.digest.bind(real),
    };
    const { ed25519 } = await freshModules(subtle);
    expect(await ed25519.ed25519Backend()).toBe('noble');
    await expectStrictResults(ed25519);
  });

  it('refuses a cofactored WebCrypto (accepts the torsion known answer)', async () => {
    const real = realCrypto.subtle;
    const torsionHex = 'e87997aa';
    const subtle: Partial<SubtleCrypto> = {
      importKey: real.importKey.bind(real) as SubtleCrypto['importKey'],
      verify: (async (alg: AlgorithmIdentifier, key: CryptoKey, sig: BufferSource, data: BufferSource) => {
        const s = new Uint8Array(sig as ArrayBufferView as Uint8Array);
        if (Buffer.from(s.subarray(0, 4)).toString('hex') === torsionHex) return true;
        return real.verify(alg, key, sig, data);
      }) as SubtleCrypto['verify'],
      digest: real.digest.bind(real),
    };
    const { ed25519 } = await freshModules(subtle);
    expect(await ed25519.ed25519Backend()).toBe('noble');
    await expectStrictResults(ed25519);
  });
});
