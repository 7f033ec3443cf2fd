import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { ED25519_L, ed25519Backend, encodedYAtLeastP, scalarBelowL, parsePublicKey, verifyEd25519, verifySignatureB64, verifyWithNoble, verifyWithWebCrypto } from '../../../lib/verify/ed25519';
import { encodeBase64 } from '../../../lib/verify/base64';
import { hex } from './corpus';
import { RFC8032_VECTORS } from './rfc8032-vectors';

const P = 2n ** 255n - 19n;

function le32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function numLE(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] as number);
  return n;
}

function flip(b: Uint8Array, index: number, bit = 0): Uint8Array {
  const c = Uint8Array.from(b);
  c[index] = (c[index] as number) ^ (1 << bit);
  return c;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

type Backend = (k: Uint8Array, s: Uint8Array, m: Uint8Array) => Promise<boolean> | boolean;
const BACKENDS: Array<[string, Backend]> = [
  ['noble', verifyWithNoble],
  ['webcrypto', verifyWithWebCrypto],
  ['auto', verifyEd25519],
];

/** The 8 small-order points, canonical encodings. */
const SMALL_ORDER_CANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2 (y = p - 1)
  '0000000000000000000000000000000000000000000000000000000000000000', // order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // order 4
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
];

/** Non-canonical encodings of small-order points. */
const SMALL_ORDER_NON_CANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000080', // identity, x = 0 with sign bit
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // order 2, x = 0 with sign bit
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p  (≡ 0), order 4
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // y = p, sign bit set
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1 (≡ 1), identity
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // y = p + 1, sign bit set
];

describe('RFC 8032 §7.1 vectors', () => {
  it('are typed in correctly (keys derive from the secrets, signatures re-sign, lengths)', async () => {
    for (const v of RFC8032_VECTORS) {
      const pub = await ed.getPublicKeyAsync(hex(v.secret));
      expect(Buffer.from(pub).toString('hex'), v.name).toBe(v.public);
      const sig = await ed.signAsync(hex(v.message), hex(v.secret));
      expect(Buffer.from(sig).toString('hex'), v.name).toBe(v.signature);
    }
    const lengths = RFC8032_VECTORS.map((v) => hex(v.message).length);
    expect(lengths).toEqual([0, 1, 2, 1023, 64]);
    const abc = RFC8032_VECTORS.find((v) => v.name === 'TEST SHA(abc)');
    expect(Buffer.from(sha512(new TextEncoder().encode('abc'))).toString('hex')).toBe(abc?.message);
  });

  for (const [name, verify] of BACKENDS) {
    it(`verify on the ${name} backend, and fail with any flipped bit`, async () => {
      for (const v of RFC8032_VECTORS) {
        const k = hex(v.public);
        const m = hex(v.message);
        const s = hex(v.signature);
        expect(await verify(k, s, m), v.name).toBe(true);
        expect(await verify(k, flip(s, 3), m), `${v.name} R bit`).toBe(false);
        expect(await verify(k, flip(s, 40), m), `${v.name} S bit`).toBe(false);
        const m2 = m.length > 0 ? flip(m, m.length >> 1) : new Uint8Array([0]);
        expect(await verify(k, s, m2), `${v.name} message`).toBe(false);
        expect(await verify(flip(k, 7), s, m), `${v.name} key`).toBe(false);
      }
    });
  }

  it('runs on WebCrypto in node 20 (so both backends are exercised)', async () => {
    expect(await ed25519Backend()).toBe('webcrypto');
  });
});

describe('malleability and encodings', () => {
  for (const [name, verify] of BACKENDS) {
    it(`rejects non-canonical S (S + L) on the ${name} backend`, async () => {
      for (const v of RFC8032_VECTORS) {
        const sig = hex(v.signature);
        const s = numLE(sig.subarray(32));
        expect(s + ED25519_L < 2n ** 256n).toBe(true);
        const malleable = concat(sig.subarray(0, 32), le32(s + ED25519_L));
        expect(await verify(hex(v.public), malleable, hex(v.message)), v.name).toBe(false);
        const maxS = concat(sig.subarray(0, 32), new Uint8Array(32).fill(0xff));
        expect(await verify(hex(v.public), maxS, hex(v.message)), v.name).toBe(false);
      }
    });

    it(`rejects a non-canonical R (y >= p) on the ${name} backend`, async () => {
      const v = RFC8032_VECTORS[1]!;
      const sig = hex(v.signature);
      const bad = concat(le32(P + 1n), sig.subarray(32));
      expect(await verify(hex(v.public), bad, hex(v.message))).toBe(false);
    });

    it(`uses the cofactorless equation on the ${name} backend`, async () => {
      // A signature whose R carries an order-8 component: R' = [r]B + T.
      // The cofactored check [8]([S]B - R' - [k]A) = 0 accepts it; RFC 8032's
      // [S]B = R' + [k]A does not.
      const v = RFC8032_VECTORS[2]!;
      const msg = hex(v.message);
      const ext = await ed.utils.getExtendedPublicKeyAsync(hex(v.secret));
      const r = numLE(sha512(concat(ext.prefix, msg))) % ED25519_L;
      const T = ed.Point.fromBytes(hex(SMALL_ORDER_CANONICAL[4]!));
      const R2 = ed.Point.BASE.multiply(r).add(T).toBytes();
      const k = numLE(sha512(concat(concat(R2, ext.pointBytes), msg))) % ED25519_L;
      const S = (r + k * ext.scalar) % ED25519_L;
      const sig = concat(R2, le32(S));
      // The library's own verify (cofactored) accepts this signature …
      expect(await ed.verifyAsync(sig, msg, ext.pointBytes, { zip215: false })).toBe(true);
      // … strict RFC 8032 verification does not.
      expect(await verify(ext.pointBytes, sig, msg)).toBe(false);
    });

    it(`rejects every small-order key, whatever the signature, on the ${name} backend`, async () => {
      for (const h of [...SMALL_ORDER_CANONICAL, ...SMALL_ORDER_NON_CANONICAL]) {
        const key = hex(h);
        // The classic forgery for small-order keys: R = identity-ish, S = 0.
        const forged = concat(hex(SMALL_ORDER_CANONICAL[0]!), new Uint8Array(32));
        expect(await verify(key, forged, new TextEncoder().encode('any message')), h).toBe(false);
        expect(await verify(key, concat(key, new Uint8Array(32)), new Uint8Array(0)), h).toBe(false);
      }
    });

    it(`returns false for wrong lengths and wrong types on the ${name} backend, never throws`, async () => {
      const v = RFC8032_VECTORS[2]!;
      const k = hex(v.public);
      const s = hex(v.signature);
      const m = hex(v.message);
      expect(await verify(k.subarray(0, 31), s, m)).toBe(false);
      expect(await verify(concat(k, new Uint8Array(1)), s, m)).toBe(false);
      expect(await verify(new Uint8Array(0), s, m)).toBe(false);
      expect(await verify(k, s.subarray(0, 63), m)).toBe(false);
      expect(await verify(k, concat(s, new Uint8Array(1)), m)).toBe(false);
      expect(await verify(k, new Uint8Array(0), m)).toBe(false);
      expect(await verify(null as unknown as Uint8Array, s, m)).toBe(false);
      expect(await verify(k, undefined as unknown as Uint8Array, m)).toBe(false);
      expect(await verify(k, s, 'af82' as unknown as Uint8Array)).toBe(false);
    });
  }

  it('the 8 canonical small-order encodings are exactly the multiples of an order-8 point', () => {
    const T = ed.Point.fromBytes(hex(SMALL_ORDER_CANONICAL[4]!));
    const multiples = new Set<string>();
    let acc = ed.Point.ZERO;
    for (let i = 0; i < 8; i++) {
      multiples.add(Buffer.from(acc.toBytes()).toString('hex'));
      acc = acc.add(T);
    }
    // The x = 0 points have one canonical encoding each; the 0x80 variant of
    // y = 0 is the other order-4 point (x = -sqrt(-1)).
    expect(multiples).toEqual(new Set(SMALL_ORDER_CANONICAL));
  });
});

describe('parsePublicKey', () => {
  it('accepts the RFC and corpus keys', () => {
    for (const v of RFC8032_VECTORS) {
      const r = parsePublicKey(encodeBase64(hex(v.public)));
      expect(r.ok, v.name).toBe(true);
      if (r.ok) expect(Buffer.from(r.key).toString('hex')).toBe(v.public);
    }
    for (const k of ['1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNc=', 'RMM5VHIl8m8TL3FUY7LMb++o2uye6CiJLCA/XbSp3l8=', '4NCAqA5Z5fxSiQAO/QZw0LbrAmBPLKfruL874xG5fYg=']) {
      expect(parsePublicKey(k).ok, k).toBe(true);
      expect(parsePublicKey(k + '\n').ok, k).toBe(true);
    }
  });

  it('refuses all 8 small-order points, canonical or not, with key-small-order', () => {
    for (const h of [...SMALL_ORDER_CANONICAL, ...SMALL_ORDER_NON_CANONICAL]) {
      const r = parsePublicKey(encodeBase64(hex(h)));
      expect(r.ok, h).toBe(false);
      if (!r.ok) expect(r.code, h).toBe('key-small-order');
    }
  });

  it('refuses a non-canonical encoding (y >= p) of an ordinary point with key-non-canonical', () => {
    let found = 0;
    for (let k = 2n; k < 19n; k++) {
      let pt: ed.Point;
      try {
        pt = ed.Point.fromBytes(le32(k));
      } catch {
        continue;
      }
      if (pt.isSmallOrder()) continue;
      found++;
      expect(parsePublicKey(encodeBase64(le32(k))).ok).toBe(true);
      const r = parsePublicKey(encodeBase64(le32(P + k)));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('key-non-canonical');
    }
    expect(found).toBeGreaterThan(0);
  });

  it('refuses bytes that are not a curve point with key-invalid-point', () => {
    let found = 0;
    for (let y = 2n; y < 40n && found < 3; y++) {
      let onCurve = true;
      try {
        ed.Point.fromBytes(le32(y));
      } catch {
        onCurve = false;
      }
      if (onCurve) continue;
      found++;
      const r = parsePublicKey(encodeBase64(le32(y)));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('key-invalid-point');
    }
    expect(found).toBe(3);
  });

  it('refuses malformed base64 and wrong lengths with their codes', () => {
    const cases: Array<[string, string]> = [
      ['1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNc', 'key-base64'], // no padding
      ['1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQ OiKSFgKjJNc=', 'key-base64'], // inner space
      ['1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNd=', 'key-base64'], // trailing bits
      ['RMM5VHIl8m8TL3FUY7LMb--o2uye6CiJLCA_XbSp3l8=', 'key-base64'], // url-safe
      ['', 'key-length'],
      [encodeBase64(new Uint8Array(31).fill(1)), 'key-length'],
      [encodeBase64(new Uint8Array(33).fill(1)), 'key-length'],
      ['MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=', 'key-length'], // SPKI, not raw
    ];
    for (const [b64, code] of cases) {
      const r = parsePublicKey(b64);
      expect(r.ok, b64).toBe(false);
      if (!r.ok) expect(r.code, b64).toBe(code);
    }
    expect(parsePublicKey(42 as unknown as string).ok).toBe(false);
  });
});

describe('verifySignatureB64', () => {
  const v = RFC8032_VECTORS[2]!;
  const key = encodeBase64(hex(v.public));
  const sig = encodeBase64(hex(v.signature));
  const msg = hex(v.message);

  it('accepts a good signature', async () => {
    expect(await verifySignatureB64(key, sig, msg)).toEqual({ ok: true });
  });

  it('gives a code for every malformed input', async () => {
    const code = async (k: string, s: string, m = msg): Promise<string> => {
      const r = await verifySignatureB64(k, s, m);
      return r.ok ? 'ok' : r.code;
    };
    expect(await code('not base64!', sig)).toBe('key-base64');
    expect(await code(encodeBase64(new Uint8Array(16)), sig)).toBe('key-length');
    expect(await code(encodeBase64(hex(SMALL_ORDER_CANONICAL[0]!)), sig)).toBe('key-small-order');
    expect(await code(key, sig.slice(0, -2))).toBe('signature-base64');
    expect(await code(key, sig.replace(/\+/g, '-').replace(/\//g, '_'))).toBe(sig.includes('+') || sig.includes('/') ? 'signature-base64' : 'ok');
    expect(await code(key, ` ${sig.slice(0, 10)} ${sig.slice(10)}`)).toBe('signature-base64');
    expect(await code(key, encodeBase64(hex(v.signature).subarray(0, 63)))).toBe('signature-length');
    expect(await code(key, encodeBase64(new Uint8Array(65)))).toBe('signature-length');
    expect(await code(key, encodeBase64(flip(hex(v.signature), 5)))).toBe('signature-invalid');
    expect(await code(key, sig, new Uint8Array([1, 2, 3]))).toBe('signature-invalid');
    const s = hex(v.signature);
    const malleable = concat(s.subarray(0, 32), le32(numLE(s.subarray(32)) + ED25519_L));
    expect(await code(key, encodeBase64(malleable))).toBe('signature-invalid');
    expect(await code(key, null as unknown as string)).toBe('signature-base64');
  });

  // R is decoded only after the equation failed (the costly part of the strict checks); each
  // rule still names its own cause.
  it('names the broken signature rule: S, R off the curve, R non-canonical, or the equation', async () => {
    const message = async (sigBytes: Uint8Array): Promise<string> => {
      const r = await verifySignatureB64(key, encodeBase64(sigBytes), msg);
      return r.ok ? 'ok' : `${r.code}: ${r.message}`;
    };
    const s = hex(v.signature);
    const S = s.subarray(32);
    let offCurve: Uint8Array | null = null;
    for (let y = 2n; y < 40n && offCurve === null; y++) {
      try {
        ed.Point.fromBytes(le32(y));
      } catch {
        offCurve = le32(y);
      }
    }
    expect(offCurve).not.toBeNull();
    expect(await message(concat(offCurve!, S))).toBe('signature-invalid: signature R is not a curve point');
    expect(await message(concat(le32(P + 1n), S))).toBe('signature-invalid: signature R is not a canonical encoding (y >= p)');
    expect(
      await message(
        concat(
          hex(SMALL_ORDER_CANONICAL[0]!).map((b, i) => (i === 31 ? b | 0x80 : b)),
          S,
        ),
      ),
    ).toBe('signature-invalid: signature R is not a canonical encoding (x = 0 with sign bit)');
    expect(await message(concat(s.subarray(0, 32), le32(numLE(S) + ED25519_L)))).toBe('signature-invalid: signature scalar S is not below the group order (non-canonical)');
    expect(await message(flip(s, 40))).toBe('signature-invalid: signature does not verify under the key');
  });
});

describe('the byte comparisons behind the signature rules', () => {
  const P = 2n ** 255n - 19n;
  const le = (n: bigint): Uint8Array => {
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
    return out;
  };
  const edges = (c: bigint): bigint[] => [c - 256n, c - 2n, c - 1n, c, c + 1n, c + 2n, c + 256n];

  it('scalarBelowL agrees with the big-integer comparison around L, 0 and 2^256 - 1', () => {
    for (const n of [0n, 1n, ...edges(ED25519_L), 2n ** 253n, 2n ** 255n, 2n ** 256n - 1n]) {
      expect(scalarBelowL(le(n)), String(n)).toBe(n < ED25519_L);
      // At an offset, as the S half of a signature.
      const sig = new Uint8Array(64).fill(0xab);
      sig.set(le(n), 32);
      expect(scalarBelowL(sig, 32), `S = ${n}`).toBe(n < ED25519_L);
    }
  });

  it('encodedYAtLeastP agrees with the big-integer comparison around p, with the sign bit clear and set', () => {
    // Every y up to 2^255 - 1 (bit 255 is the sign bit): p - 256 … p + 18 and the largest.
    for (const y of [0n, 1n, ...edges(P).filter((v) => v < 2n ** 255n), P + 18n, 2n ** 255n - 1n]) {
      for (const sign of [false, true]) {
        const bytes = le(y);
        if (sign) bytes[31] = (bytes[31] as number) | 0x80;
        expect(encodedYAtLeastP(bytes), `y = ${y}, sign ${sign}`).toBe(y >= P);
      }
    }
  });
});
