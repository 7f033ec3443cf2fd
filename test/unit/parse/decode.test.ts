import { describe, expect, it } from 'vitest';
import { decodeUtf8, splitLines } from '../../../lib/parse/decode';

describe('decodeUtf8', () => {
  it('strips one leading BOM only', () => {
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('a');
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
  });
  it('keeps a BOM that is not leading', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0xef, 0xbb, 0xbf]))).toBe('a\ufeff');
  });
  it('replaces invalid sequences with U+FFFD instead of throwing', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0xff, 0x62, 0xc3]))).toBe('a\ufffdb\ufffd');
  });
  it('decodes multi-byte characters', () => {
    expect(decodeUtf8(new TextEncoder().encode('café — 技能'))).toBe('café — 技能');
  });
});

describe('splitLines', () => {
  it('splits on CR LF, LF and lone CR', () => {
    expect(splitLines('a\r\nb\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
  });
  it('accepts a missing final newline and does not add an empty line after a final one', () => {
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\n')).toEqual(['a']);
  });
  it('keeps blank lines in the middle and treats CR CR LF as two breaks', () => {
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('a\r\r\nb')).toEqual(['a', '', 'b']);
  });
  it('returns no lines for empty text and one empty line for a lone newline', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
  it('handles 100k lines and a 1 MiB line', () => {
    expect(splitLines('x\n'.repeat(100_000)).length).toBe(100_000);
    expect(splitLines('y'.repeat(1 << 20))[0]?.length).toBe(1 << 20);
  });
});
