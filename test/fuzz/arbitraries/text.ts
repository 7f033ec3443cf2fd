// Text and byte pieces that trip parsers: separators, escapes, invisible and bidi characters,
// normalization pairs, lone surrogates, line terminators of every kind, and byte-level edits
// (invalid UTF-8, truncation) applied after a structured input has been serialized.
import fc from 'fast-check';

const encoder = new TextEncoder();

/** Characters and short strings that mean something to one of the parsers, or to none. */
export const HOSTILE_PIECES = [
  '\u0000',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\\',
  '/',
  '//',
  '..',
  '../',
  '.',
  '%',
  '%2e',
  '%2F',
  '%00',
  '%zz',
  '#',
  '?',
  '&',
  '=',
  '@',
  ':',
  ';',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '<!--',
  '-->',
  '`',
  '```',
  '~~~',
  '"',
  "'",
  '{',
  '}',
  '{{',
  '}}',
  '${',
  '$',
  '__',
  '_',
  '*',
  '-',
  '+',
  '|',
  'é',
  'e\u0301',
  'ß',
  'SS',
  'İ',
  'ı',
  '\ufb01',
  '\u2126',
  '\u03a9',
  '𝒜',
  '\u0130',
  'ς',
  'σ',
  'skills',
  'SKILL.md',
  'skill.md',
  'name',
  'description',
  '---',
  '## Skills',
  'skill:',
  'sha256',
  'https://',
  'http://',
];

export const hostilePiece = fc.constantFrom(...HOSTILE_PIECES);

/** A short string mixing ordinary text with hostile pieces. */
export function hostileText(maxPieces = 6): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: hostilePiece }, { weight: 2, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) }), {
      maxLength: maxPieces,
    })
    .map((parts) => parts.join(''));
}

/** A plain word, as real documents use. */
export const word = fc.constantFrom('review', 'search-docs', 'pdf', 'a', 'x', 'Code Review', 'refunds', 'billing', 'Acme', 'skill');

/** A line terminator: LF, CR LF or a lone CR. */
export const lineEnd = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');

/** Lines joined with their own terminators, with an optional BOM and final terminator. */
export function joinLines(lines: fc.Arbitrary<string>, maxLines: number): fc.Arbitrary<string> {
  return fc.tuple(fc.array(fc.tuple(lines, lineEnd), { maxLength: maxLines }), fc.boolean(), fc.boolean()).map(([pairs, bom, finalEnd]) => {
    let text = pairs.map(([line, end], i) => (i === pairs.length - 1 && !finalEnd ? line : line + end)).join('');
    if (bom) text = `\ufeff${text}`;
    return text;
  });
}

export type Edit = { kind: 'set' | 'insert' | 'delete' | 'truncate'; at: number; byte: number };

export const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('set', 'set', 'insert', 'delete', 'truncate'),
  at: fc.nat(),
  byte: fc.oneof(fc.constantFrom(0x00, 0xff, 0x80, 0xc0, 0xe2, 0xed, 0xf4, 0xef, 0x0a, 0x0d, 0x2f, 0x2e, 0x5c), fc.integer({ min: 0, max: 255 })),
});

/** Applies byte edits; positions wrap around the current length. */
export function applyEdits(bytes: Uint8Array, edits: readonly Edit[]): Uint8Array {
  let out = bytes;
  for (const e of edits) {
    const n = out.length;
    if (e.kind === 'insert') {
      const at = n === 0 ? 0 : e.at % (n + 1);
      const next = new Uint8Array(n + 1);
      next.set(out.subarray(0, at), 0);
      next[at] = e.byte;
      next.set(out.subarray(at), at + 1);
      out = next;
    } else if (n === 0) {
    } else if (e.kind === 'set') {
      out = out.slice();
      out[e.at % n] = e.byte;
    } else if (e.kind === 'delete') {
      const at = e.at % n;
      out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + 1)]);
    } else {
      out = out.slice(0, e.at % n);
    }
  }
  return out;
}

/** Text as UTF-8 bytes, now and then with a few bytes edited (mostly left intact). */
export function textBytes(text: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(text, fc.oneof({ weight: 4, arbitrary: fc.constant([] as Edit[]) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) }))
    .map(([t, edits]) => applyEdits(encoder.encode(t), edits));
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
