// parseFrontmatter (FORMATS.md §3): SKILL.md files whose YAML block has the fields that matter,
// prototype keys, anchors, aliases and alias bombs, merge keys, tags, flow nesting, block scalars
// and repeated keys; delimiters that almost match; blocks around the 16 KiB cap.
import fc from 'fast-check';
import { FRONTMATTER_MAX_BYTES, parseFrontmatter } from '../../../lib/parse/skill-md';
import { decodeUtf8 } from '../../../lib/parse/decode';
import { hostileText, lineEnd, textBytes, word } from '../arbitraries/text';
import { checkDiagnostics } from '../invariants';
import { call, check, seen, type FuzzTarget } from '../types';

const encoder = new TextEncoder();

const scalar = fc.oneof(
  word,
  hostileText(4),
  fc.constantFrom(
    '"quoted"',
    "'single'",
    '1.0',
    '1',
    '~',
    'null',
    'yes',
    '[1, 2]',
    '{a: 1}',
    '|',
    '>-',
    '"\\u0000"',
    '!!binary aGk=',
    '!!js/function "f"',
    '&a x',
    '*a',
    '*undefined',
    "''",
    '""',
    '0x1F',
    '.inf',
    '2026-01-01',
  ),
);
const key = fc.oneof(
  fc.constantFrom(
    'name',
    'name',
    'description',
    'description',
    'version',
    'license',
    'compatibility',
    'metadata',
    'allowed-tools',
    '__proto__',
    'constructor',
    'prototype',
    '<<',
    '? complex',
    '"name"',
    'name ',
    '- item',
  ),
  word,
);

function aliasBomb(levels: number, width: number): string {
  const lines = [`l0: &l0 [${Array(width).fill('x').join(', ')}]`];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(width)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n');
}

const yamlLine = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(key, fc.constantFrom(': ', ':', ' : ', ':\t', ': '), scalar).map(([k, s, v]) => `${k}${s}${v}`) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 2, max: 6 })).map(([l, w]) => aliasBomb(l, w)) },
  { weight: 1, arbitrary: fc.nat(300).map((n) => `deep: ${'['.repeat(n)}${']'.repeat(n)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'base: &b {name: x}',
      '<<: *b',
      'merged: {<<: *b}',
      '  indented: 1',
      '\tname: tab',
      '- a',
      '---',
      '...',
      '%YAML 1.2',
      '%TAG ! tag:x,2000:',
      '# comment',
      'name: |\n  line\n  line',
      'polluted: !!map {__proto__: {x: 1}}',
      '__proto__: {polluted: yes}',
      'constructor: {prototype: {polluted: yes}}',
    ),
  },
  { weight: 1, arbitrary: hostileText(6) },
);

const opening = fc.constantFrom('---', '---', '---', '--- ', '----', ' ---', '---\ufeff', '');
const closing = fc.constantFrom('---', '---', '---', '--- ', '...', '----', '');

const document = fc
  .record({
    opening,
    closing,
    end: lineEnd,
    lines: fc.array(yamlLine, { maxLength: 8 }),
    filler: fc.oneof({ weight: 15, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: FRONTMATTER_MAX_BYTES - 64, max: FRONTMATTER_MAX_BYTES + 64 }) }),
    multibyte: fc.boolean(),
    body: fc.oneof(fc.constant('\n# Title\n\nBody.\n'), hostileText(6)),
  })
  .map((p) => {
    const lines = [...p.lines];
    if (p.filler > 0) {
      // A comment line that brings the block close to the cap, in 1- or 3-byte characters.
      const unit = p.multibyte ? '€' : 'x';
      lines.push(`# ${unit.repeat(Math.max(0, Math.floor(p.filler / (p.multibyte ? 3 : 1))))}`);
    }
    return `${p.opening}${p.end}${lines.join(p.end)}${lines.length > 0 ? p.end : ''}${p.closing}${p.end}${p.body}`;
  });

/**
 * The UTF-8 size of the frontmatter block, found independently of the parser: the first line is
 * exactly `---`, the block ends before the next line that is exactly `---`. Null when there is none.
 */
function blockSize(text: string): number | null {
  const lines: { start: number; end: number; next: number }[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push({ start, end: m.index, next: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ start, end: text.length, next: text.length });
  const first = lines[0];
  if (!first || text.slice(first.start, first.end) !== '---') return null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i] as { start: number; end: number };
    if (text.slice(l.start, l.end) === '---') return encoder.encode(text.slice(first.next, l.start)).length;
  }
  return null;
}

/** Counts nodes, expanding shared references, and stops once past `budget`. */
function nodeCount(value: unknown, budget: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= budget) {
    const v = stack.pop();
    count += 1;
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null && !(v instanceof Date) && !(v instanceof Uint8Array)) stack.push(...Object.values(v));
  }
  return count;
}

const NODE_BUDGET = 200_000;

export const frontmatterTarget: FuzzTarget = {
  id: 'frontmatter',
  entry: 'parseFrontmatter (lib/parse/skill-md.ts)',
  inputs: 'SKILL.md files: YAML with the known fields, prototype keys, anchors, alias bombs, merge keys, tags, deep flow nesting; near-miss delimiters; blocks around the 16 KiB cap; byte edits',
  property: () =>
    fc.property(textBytes(document), (bytes) => {
      const fm = call('parseFrontmatter', () => parseFrontmatter(bytes));
      check(Object.keys(Object.prototype).length === 0 && ({} as Record<string, unknown>)['polluted'] === undefined, 'Object.prototype was modified');
      checkDiagnostics(fm.diagnostics, 'frontmatter');
      seen(fm.data === null ? 'no-data' : 'data');
      for (const d of fm.diagnostics) seen(d.code);
      for (const k of ['name', 'description', 'version', 'license', 'compatibility'] as const) {
        check(fm[k] === null || typeof fm[k] === 'string', `${k} is ${typeof fm[k]}`);
      }
      check(typeof fm.versionIsNonString === 'boolean', 'versionIsNonString is not a boolean');
      if (fm.data === null) {
        check(fm.name === null && fm.description === null, 'fields read without data');
        return;
      }
      check(Object.getPrototypeOf(fm.data) === null, 'the data object has a prototype');
      const size = blockSize(decodeUtf8(bytes));
      check(size !== null, 'data was read although there is no frontmatter block');
      check((size as number) <= FRONTMATTER_MAX_BYTES, `a block of ${size} bytes was parsed (cap ${FRONTMATTER_MAX_BYTES})`);
      check(nodeCount(fm.data, NODE_BUDGET) <= NODE_BUDGET, `the data expands to more than ${NODE_BUDGET} nodes`);
      const own = (k: string): unknown => (fm.data !== null && Object.hasOwn(fm.data, k) ? fm.data[k] : undefined);
      check(fm.name === (typeof own('name') === 'string' ? own('name') : null), 'name does not match data.name');
      check(fm.description === (typeof own('description') === 'string' ? own('description') : null), 'description does not match data.description');
    }),
};
