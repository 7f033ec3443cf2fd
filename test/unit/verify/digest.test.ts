import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { DeclaredDigest } from '../../../lib/types';
import { checkDigests, lfNormalize } from '../../../lib/verify/digest';
import { WEBCRYPTO_MIN_BYTES, sha256, sha256Sync, toHex } from '../../../lib/verify/sha256';
import { corpusBytes } from './corpus';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const nodeHex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const declared = (hex: string, field: DeclaredDigest['field'] = 'index-sha256'): DeclaredDigest => ({
  source: 'index',
  field,
  hex,
});

const LTS = 'llms-txt-skills';
const PLACEHOLDER = 'f427124e22c7bfc3d45271081e2d5eff3b1f9d740f9685748f9d4abd99dd03df';

describe('sha256', () => {
  it('matches a known answer and node on both sides of the backend threshold', async () => {
    expect(toHex(sha256Sync(enc('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(await sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const n of [0, 1, 63, 64, 1000, WEBCRYPTO_MIN_BYTES - 1, WEBCRYPTO_MIN_BYTES, 100_000]) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
      expect(toHex(await sha256(b)), String(n)).toBe(nodeHex(b));
      expect(toHex(sha256Sync(b)), String(n)).toBe(nodeHex(b));
    }
  });

  it('hashes a subarray view by its own bytes only', async () => {
    const big = enc('xxabcxx');
    const view = big.subarray(2, 5);
    expect(toHex(await sha256(view))).toBe(toHex(sha256Sync(enc('abc'))));
    const large = new Uint8Array(WEBCRYPTO_MIN_BYTES * 2).fill(9);
    const largeView = large.subarray(5, WEBCRYPTO_MIN_BYTES + 5);
    expect(toHex(await sha256(largeView))).toBe(nodeHex(largeView));
  });

  it('toHex is lowercase and zero-padded', () => {
    expect(toHex(new Uint8Array([0, 1, 0xab, 0xff]))).toBe('0001abff');
    expect(toHex(new Uint8Array(0))).toBe('');
  });
});

describe('lfNormalize', () => {
  it('replaces CR LF with LF and nothing else', () => {
    const cases: Array<[number[], number[]]> = [
      [
        [0x61, 0x0d, 0x0a, 0x62],
        [0x61, 0x0a, 0x62],
      ],
      [
        [0x0d, 0x0a, 0x0d, 0x0a],
        [0x0a, 0x0a],
      ],
      [
        [0x0d, 0x0d, 0x0a],
        [0x0d, 0x0a],
      ], // a lone CR before CR LF stays
      [
        [0x61, 0x0d, 0x62],
        [0x61, 0x0d, 0x62],
      ], // lone CR stays
      [
        [0x61, 0x0d],
        [0x61, 0x0d],
      ], // final lone CR stays
      [
        [0x0a, 0x0d],
        [0x0a, 0x0d],
      ], // LF CR is not CR LF
      [
        [0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a],
        [0xef, 0xbb, 0xbf, 0x61, 0x0a],
      ], // BOM stays
      [[], []],
    ];
    for (const [input, want] of cases) {
      expect(Array.from(lfNormalize(new Uint8Array(input))), JSON.stringify(input)).toEqual(want);
    }
  });

  it('returns the input itself when there is no CR LF, and never mutates it', () => {
    const b = enc('a\rb\nc');
    expect(lfNormalize(b)).toBe(b);
    const c = enc('a\r\nb');
    const before = Array.from(c);
    const out = lfNormalize(c);
    expect(out).not.toBe(c);
    expect(Array.from(c)).toEqual(before);
  });

  it('turns the crlf-served corpus file into the published bytes', () => {
    const crlf = corpusBytes(`${LTS}/_synthetic/crlf-served/skills/placeholder/SKILL.md`);
    const lf = corpusBytes(`${LTS}/skills/placeholder/SKILL.md`);
    expect(Buffer.from(lfNormalize(crlf)).equals(Buffer.from(lf))).toBe(true);
  });
});

describe('checkDigests — FORMATS.md §4 vectors', () => {
  it('lts/skills/placeholder: match (raw)', async () => {
    const r = await checkDigests(corpusBytes(`${LTS}/skills/placeholder/SKILL.md`), [declared(PLACEHOLDER, 'inline-sha256')]);
    expect(r).toEqual({ rawHex: PLACEHOLDER, lfHex: PLACEHOLDER, matchedForm: 'raw', undeclared: false, mismatch: false });
  });

  it('crlf-served: match (lf-normalized), raw differs', async () => {
    const r = await checkDigests(corpusBytes(`${LTS}/_synthetic/crlf-served/skills/placeholder/SKILL.md`), [declared(PLACEHOLDER, 'inline-sha256'), declared(PLACEHOLDER, 'index-sha256')]);
    expect(r.rawHex.startsWith('ed34e67c')).toBe(true);
    expect(r.lfHex).toBe(PLACEHOLDER);
    expect(r.matchedForm).toBe('lf-normalized');
    expect(r.mismatch).toBe(false);
  });

  it('bom-prefixed: digest-mismatch (the BOM is never stripped)', async () => {
    const r = await checkDigests(corpusBytes(`${LTS}/_synthetic/bom-prefixed/skills/placeholder/SKILL.md`), [declared(PLACEHOLDER)]);
    expect(r.rawHex.startsWith('5ca8ea5c')).toBe(true);
    expect(r.lfHex).toBe(r.rawHex);
    expect(r.matchedForm).toBeNull();
    expect(r.mismatch).toBe(true);
  });

  it('tampered-same-key: digest-mismatch', async () => {
    const r = await checkDigests(corpusBytes(`${LTS}/_synthetic/tampered-same-key/skills/placeholder/SKILL.md`), [declared(PLACEHOLDER)]);
    expect(r.rawHex.startsWith('99d65b87')).toBe(true);
    expect(r.mismatch).toBe(true);
  });

  it('hull archive: match (raw) with an index digest', async () => {
    const bytes = corpusBytes('real/sites/rindag-devs__hull__docs/.well-known/agent-skills/author-hull-problems.tar.gz');
    const want = 'eec9f10bd9b6ef7f23fdcabf628dacb7db2c3fceba3da0ce463a34c1df614958';
    const r = await checkDigests(bytes, [declared(want, 'index-digest')]);
    expect(r.matchedForm).toBe('raw');
    expect(r.rawHex).toBe(want);
  });

  it('compares hex case-insensitively', async () => {
    const r = await checkDigests(corpusBytes(`${LTS}/skills/placeholder/SKILL.md`), [declared(PLACEHOLDER.toUpperCase())]);
    expect(r.matchedForm).toBe('raw');
  });

  it('reports undeclared when nothing is declared', async () => {
    const r = await checkDigests(enc('hello'), []);
    expect(r.undeclared).toBe(true);
    expect(r.mismatch).toBe(false);
    expect(r.matchedForm).toBeNull();
    expect(r.rawHex).toBe(nodeHex(enc('hello')));
  });

  it('is a mismatch when any declared digest matches neither form', async () => {
    const bytes = corpusBytes(`${LTS}/skills/placeholder/SKILL.md`);
    const r = await checkDigests(bytes, [declared(PLACEHOLDER), declared('0'.repeat(64))]);
    expect(r.mismatch).toBe(true);
    expect(r.matchedForm).toBeNull();
    const junk = await checkDigests(bytes, [declared('not hex at all')]);
    expect(junk.mismatch).toBe(true);
  });

  it('computes the lf form only when CR LF is present', async () => {
    const lone = enc('a\rb');
    const r = await checkDigests(lone, [declared(nodeHex(lone))]);
    expect(r.lfHex).toBe(r.rawHex);
    expect(r.matchedForm).toBe('raw');
  });

  it('records the first declared form when declared digests match different forms', async () => {
    const bytes = enc('a\r\nb');
    const raw = nodeHex(bytes);
    const lf = nodeHex(enc('a\nb'));
    const r = await checkDigests(bytes, [declared(lf), declared(raw)]);
    expect(r.mismatch).toBe(false);
    expect(r.matchedForm).toBe('lf-normalized');
    const r2 = await checkDigests(bytes, [declared(raw), declared(raw)]);
    expect(r2.matchedForm).toBe('raw');
  });
});
