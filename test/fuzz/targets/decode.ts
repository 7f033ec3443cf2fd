// decodeUtf8 and splitLines (FORMATS.md §1.1): arbitrary bytes, encoded hostile text with BOMs
// and every line terminator, and byte edits that break UTF-8 sequences.
import fc from 'fast-check';
import { decodeUtf8, splitLines } from '../../../lib/parse/decode';
import { hostileText, joinLines, textBytes } from '../arbitraries/text';
import { call, check, seen, type FuzzTarget } from '../types';

const reference = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export const decodeTarget: FuzzTarget = {
  id: 'decode',
  entry: 'decodeUtf8, splitLines (lib/parse/decode.ts)',
  inputs: 'arbitrary bytes; hostile text with BOMs, CR, LF and CR LF; byte edits that break UTF-8 sequences',
  property: () =>
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), textBytes(joinLines(hostileText(6), 8))), (bytes) => {
      const text = call('decodeUtf8', () => decodeUtf8(bytes));
      check(text.isWellFormed(), 'the decoded text holds a lone surrogate');
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      check(text === reference.decode(bom ? bytes.subarray(3) : bytes), 'decoding differs from UTF-8 with the leading BOM dropped');
      const lines = call('splitLines', () => splitLines(text));
      check(
        lines.every((l) => !l.includes('\n') && !l.includes('\r')),
        'a line keeps a terminator',
      );
      const unified = text.replace(/\r\n|\r/g, '\n');
      const expected = unified === '' ? [] : (unified.endsWith('\n') ? unified.slice(0, -1) : unified).split('\n');
      seen(lines.length === 0 ? 'no-lines' : lines.length === 1 ? 'one-line' : 'lines');
      if (text.includes('\ufffd')) seen('replacement-character');
      check(JSON.stringify(lines) === JSON.stringify(expected), 'the lines differ from splitting on CR LF, LF and CR');
    }),
};
