import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, encodeBase64 } from '../../../lib/verify/base64';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { estimateTokenCount } from '../../../lib/verify/tokens';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('encodeBase64', () => {
  it('matches RFC 4648 §10 vectors, padded and unpadded', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, b64] of vectors) {
      const b = new TextEncoder().encode(plain);
      expect(encodeBase64(b)).toBe(b64);
      expect(encodeBase64(b, false)).toBe(b64.replace(/=+$/, ''));
      expect(Array.from(decodeBase64Strict(b64) ?? [-1])).toEqual(Array.from(b));
    }
  });

  it('round-trips every length and byte value, and agrees with node', () => {
    for (let n = 0; n < 70; n++) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = (i * 73 + n * 11) & 0xff;
      const s = encodeBase64(b);
      expect(s).toBe(Buffer.from(b).toString('base64'));
      expect(Array.from(decodeBase64Strict(s) ?? [-1])).toEqual(Array.from(b));
    }
    const all = new Uint8Array(256);
    for (let i = 0; i < 256; i++) all[i] = i;
    expect(Array.from(decodeBase64Strict(encodeBase64(all)) ?? [])).toEqual(Array.from(all));
  });
});

describe('decodeBase64Strict', () => {
  it('trims ASCII whitespace at the ends only', () => {
    expect(Array.from(decodeBase64Strict(' \t\r\nZm9v\n') ?? [-1])).toEqual([0x66, 0x6f, 0x6f]);
    expect(Array.from(decodeBase64Strict('Zm8=\n') ?? [-1])).toEqual([0x66, 0x6f]);
    expect(decodeBase64Strict('Zm9v\u00a0')).toBeNull(); // NBSP is not ASCII whitespace
    expect(decodeBase64Strict('Zm9v\u000b')).toBeNull(); // VT is not trimmed
  });

  it('refuses every malformed form with null, never throwing', () => {
    const bad = [
      'Zm 9v', // inner space
      'Zm9v\nYmFy', // inner newline
      'Zm\t9v',
      'Zg', // missing padding
      'Zm8', // missing padding
      'Zg=', // short padding
      'Zg===', // too much padding
      '=Zm9', // padding at the start
      'Zm=v', // padding in the middle
      'Zg==Zg==', // padding then data
      'Zh==', // non-canonical trailing bits (one byte)
      'Zm9=', // non-canonical trailing bits (two bytes)
      '-_-_', // URL-safe alphabet
      'ab-d',
      'ab_d',
      'Zm9v!', // stray character
      'Zm9vé===',
      '====',
      'A',
      'AB',
      'ABC',
    ];
    for (const s of bad) expect(decodeBase64Strict(s), JSON.stringify(s)).toBeNull();
    expect(decodeBase64Strict(null as unknown as string)).toBeNull();
    expect(decodeBase64Strict(42 as unknown as string)).toBeNull();
  });

  it('accepts the canonical forms next to the refused ones', () => {
    expect(Array.from(decodeBase64Strict('Zg==') ?? [-1])).toEqual([0x66]);
    expect(Array.from(decodeBase64Strict('Zm8=') ?? [-1])).toEqual([0x66, 0x6f]);
    expect(Array.from(decodeBase64Strict('+/+/') ?? [-1])).toEqual([0xfb, 0xff, 0xbf]);
    expect(Array.from(decodeBase64Strict('') ?? [-1])).toEqual([]);
    expect(Array.from(decodeBase64Strict('   ') ?? [-1])).toEqual([]);
  });
});

describe('fingerprint', () => {
  it('matches the corpus fingerprints', () => {
    const cases: Array<[string, string]> = [
      ['1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNc=', 'SHA256:e4FatXC4OoswF/nA5G1OZQmhtDBuNVoNZ/zepczyMm0'],
      ['RMM5VHIl8m8TL3FUY7LMb++o2uye6CiJLCA/XbSp3l8=', 'SHA256:wPn1QeA38RpbeEWpToRHO+ytNknUK/P5g5jvjW0IlM8'],
      ['4NCAqA5Z5fxSiQAO/QZw0LbrAmBPLKfruL874xG5fYg=', 'SHA256:OUEYTtP/6s31xtlJnS8KiLCvaQop1y0qbApXSX4YRzc'],
    ];
    for (const [key, fp] of cases) {
      const raw = decodeBase64Strict(key);
      expect(raw).not.toBeNull();
      expect(fingerprint(raw as Uint8Array)).toBe(fp);
    }
  });

  it('is unpadded and differs for different keys', () => {
    const a = fingerprint(new Uint8Array(32));
    const b = fingerprint(bytes(...new Array<number>(31).fill(0), 1));
    expect(a.startsWith('SHA256:')).toBe(true);
    expect(a.endsWith('=')).toBe(false);
    expect(a.length).toBe(7 + 43);
    expect(a).not.toBe(b);
  });
});

describe('estimateTokenCount', () => {
  it('is ceil(bytes / 4)', () => {
    expect(estimateTokenCount(new Uint8Array(0).length)).toBe(0);
    expect(estimateTokenCount(new Uint8Array(1).length)).toBe(1);
    expect(estimateTokenCount(new Uint8Array(4).length)).toBe(1);
    expect(estimateTokenCount(new Uint8Array(5).length)).toBe(2);
    expect(estimateTokenCount(new Uint8Array(8228).length)).toBe(2057);
  });
});
