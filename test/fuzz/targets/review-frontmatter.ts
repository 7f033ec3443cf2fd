// The review's frontmatter reading against a lenient YAML reader (differential):
// no SKILL.md where the `yaml` package, read the way agents' readers are (merge keys on, duplicate
// keys allowed, default schema), finds a top-level tool-grant, server or hooks key while the review
// finds neither that grant nor an `unreadable-frontmatter` finding. Keys are quoted, complex (`? k`),
// merged (`<<`), anchored and aliased, oddly spaced, repeated, in flow mappings, under `%YAML 1.1`.
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { reviewSkill } from '../../../lib/review';
import { reachOf } from '../../../lib/review/frontmatter';
import { lineEnd } from '../arbitraries/text';
import { call, check, seen, type FuzzTarget } from '../types';

const encoder = new TextEncoder();

const reach = fc.constantFrom(
  'allowed-tools',
  'Allowed-Tools',
  'allowed_tools',
  'allowedTools',
  'allowed tools',
  'tools',
  'mcp',
  'mcpServers',
  'mcp-servers',
  'servers',
  'hooks',
  'HOOKS',
  'permissions',
);
const other = fc.constantFrom('name', 'description', 'metadata', 'license', 'version', 'x', '<<', '__proto__');
const anchor = fc.constantFrom('a', 'b');

/** A key as written: plain, quoted, complex, tagged, anchored, aliased, with odd spacing. */
const keyText = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(reach, other) },
  { weight: 2, arbitrary: reach.map((k) => `"${k}"`) },
  { weight: 1, arbitrary: reach.map((k) => `'${k}'`) },
  { weight: 1, arbitrary: reach.map((k) => `!!str ${k}`) },
  { weight: 1, arbitrary: fc.tuple(anchor, reach).map(([a, k]) => `&${a} ${k}`) },
  { weight: 1, arbitrary: anchor.map((a) => `*${a} `) },
  { weight: 1, arbitrary: reach.map((k) => `"${k.slice(0, 2)}\\${k.slice(2, 3)}${k.slice(3)}"`) },
);
const value = fc.oneof(
  fc.constantFrom('Bash', '"Bash(*)"', '[Read, Bash]', '{}', '', '~', 'null', '|\n  Bash', 'x'),
  fc.tuple(anchor, fc.constantFrom('Bash', '{allowed-tools: Bash}', '{hooks: {PreToolUse: x}}')).map(([a, v]) => `&${a} ${v}`),
  anchor.map((a) => `*${a}`),
  fc.tuple(reach, fc.constantFrom('x', '[y]')).map(([k, v]) => `{${k}: ${v}}`),
);
const sep = fc.constantFrom(': ', ':  ', ' : ', ':\t');

const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(keyText, sep, value).map(([k, s, v]) => `${k}${s}${v}`) },
  { weight: 1, arbitrary: fc.tuple(reach, value).map(([k, v]) => `? ${k}\n: ${v}`) },
  { weight: 1, arbitrary: fc.tuple(reach, value).map(([k, v]) => `? [${k}]\n: ${v}`) },
  { weight: 1, arbitrary: fc.tuple(reach, value).map(([k, v]) => `<<: {${k}: ${v === '' ? 'x' : v}}`) },
  { weight: 1, arbitrary: fc.tuple(anchor, reach).map(([a, k]) => `base: &${a} {${k}: Bash}\n<<: *${a}`) },
  { weight: 1, arbitrary: fc.tuple(reach, reach).map(([a, b]) => `<<: [{${a}: x}, {${b}: y}]`) },
  { weight: 1, arbitrary: fc.tuple(reach, value).map(([k, v]) => `{${k}: ${v === '' ? 'x' : v}}`) },
  { weight: 1, arbitrary: fc.constantFrom('name: demo', 'description: A demo.', '# comment', '  nested: 1', '- item', '%YAML 1.1', '---', '...', '', 'key: "unterminated') },
);

const skillMd = fc
  .record({
    directive: fc.constantFrom('', '', '', '%YAML 1.1\n'),
    lines: fc.array(line, { minLength: 1, maxLength: 6 }),
    end: lineEnd,
    closing: fc.constantFrom('---', '---', '---', '--- ', '...', ''),
  })
  .map((p) => `---${p.end}${p.directive}${p.lines.join(p.end)}${p.end}${p.closing}${p.end}# Body${p.end}`);

/** The block a reader takes, found independently of lib/parse: after a first line `---`, up to the next `---` line or the end. */
function blockOf(text: string): string | null {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[0] !== '---') return null;
  const close = lines.indexOf('---', 1);
  return lines.slice(1, close < 0 ? lines.length : close).join('\n');
}

/** What the lenient reader finds at the top level: 'hooks', 'tool-grant', both or neither. */
function lenientReach(block: string): Set<string> {
  const found = new Set<string>();
  try {
    const doc = parseDocument(block, { uniqueKeys: false, merge: true, prettyErrors: false });
    const data: unknown = doc.toJS({ maxAliasCount: 1000 });
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return found;
    for (const key of Object.keys(data)) {
      const r = reachOf(key);
      if (r !== null) found.add(r);
    }
  } catch {
    // A reader that throws finds nothing.
  }
  return found;
}

export const reviewFrontmatterTarget: FuzzTarget = {
  id: 'review-frontmatter',
  entry: 'reviewSkill on SKILL.md frontmatter (lib/review/frontmatter.ts) against the yaml package read leniently',
  inputs: 'frontmatter blocks with tool-grant, server and hooks keys quoted, complex, merged, anchored and aliased, oddly spaced, repeated, in flow mappings, under %YAML 1.1; near-miss closing lines',
  property: () =>
    fc.property(skillMd, (text) => {
      const review = call('reviewSkill', () => reviewSkill([{ path: 'SKILL.md', bytes: encoder.encode(text) }]));
      const kinds = new Set(review.findings.map((f) => f.kind));
      const unreadable = kinds.has('unreadable-frontmatter');
      seen(unreadable ? 'unreadable-frontmatter' : kinds.has('hooks') || kinds.has('tool-grant') ? 'grant-found' : 'no-grant');
      const block = blockOf(text);
      const lenient = block === null ? new Set<string>() : lenientReach(block);
      for (const r of lenient) seen(`lenient-${r}`);
      if (unreadable) return;
      check(!lenient.has('hooks') || kinds.has('hooks'), 'a lenient YAML reader finds hooks the review does not');
      check(!lenient.has('tool-grant') || kinds.has('tool-grant') || kinds.has('hooks'), 'a lenient YAML reader finds a tool grant the review does not');
    }),
};
