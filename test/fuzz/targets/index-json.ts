// parseIndex (FORMATS.md §2): index documents whose entries take every shape (url, v0.1 files,
// superseded draft, custom, not an object) with odd values in every field, then serialized and
// sometimes damaged as text (repeated keys, truncation, deep nesting, a __proto__ key).
import fc from 'fast-check';
import { decodeUtf8 } from '../../../lib/parse/decode';
import { KNOWN_SCHEMA, parseIndex } from '../../../lib/parse/index-json';
import type { ParsedIndex } from '../../../lib/parse/index-json';
import { hex64, jsonText, oddKey, oddValue } from '../arbitraries/json';
import { base, rawUrl } from '../arbitraries/url';
import { hostileText, textBytes, word } from '../arbitraries/text';
import { checkCandidate, checkCode, checkDiagnostics } from '../invariants';
import { call, check, seen, type FuzzTarget } from '../types';

const name = fc.oneof(word, hostileText(3), fc.constantFrom('..', '.', 'a/b', 'a%2fb', 'code-review', 'Code-Review', '-x', 'x--y'), oddValue);
const digest = fc.oneof(
  hex64.map((h) => `sha256:${h}`),
  hex64,
  oddValue,
  fc.constantFrom('sha256:', 'SHA256:' + 'a'.repeat(64), 'sha512:' + 'a'.repeat(64)),
);
const display = { description: fc.oneof(word, hostileText(4), oddValue), version: oddValue, license: oddValue, homepage: fc.oneof(rawUrl, oddValue) };

const urlEntry = fc.record(
  {
    url: fc.oneof({ weight: 5, arbitrary: rawUrl }, { weight: 1, arbitrary: oddValue }),
    type: fc.oneof(fc.constantFrom('skill-md', 'archive', 'zip', 'SKILL-MD', ''), oddValue),
    digest,
    sha256: fc.oneof(hex64, oddValue),
    signature: fc.oneof(fc.base64String({ maxLength: 88 }), oddValue),
    name,
    id: name,
    title: name,
    label: name,
    tool: fc.oneof(rawUrl, oddValue),
    tool_sha256: fc.oneof(hex64, oddValue),
    scope: fc.oneof(word, hostileText(2), oddValue),
    ...display,
  },
  { requiredKeys: ['url'] },
);

const v01Path = fc.oneof(fc.constantFrom('SKILL.md', 'SKILL.md', 'scripts/run.sh', '../x', '/abs', 'https://x.test/a', 'a\\b', 'a?b', 'a#b', '[x]', 'é', '', 'a/../b', 'a\u0000'), hostileText(3));
const v01Entry = fc.record(
  { name, files: fc.array(fc.oneof({ weight: 4, arbitrary: v01Path }, { weight: 1, arbitrary: oddValue }), { maxLength: 4 }), digest, ...display },
  { requiredKeys: ['name', 'files'] },
);
const draftEntry = fc.record(
  { name, path: fc.oneof(rawUrl, oddValue), files: fc.array(fc.record({ path: fc.oneof(v01Path, oddValue), digest }), { minLength: 1, maxLength: 3 }), ...display },
  { requiredKeys: ['files'] },
);
const customEntry = fc.dictionary(fc.oneof(oddKey, fc.constantFrom('href', 'link', 'files', 'url', 'path')), oddValue, { maxKeys: 4 });

const entry = fc.oneof(
  { weight: 6, arbitrary: urlEntry },
  { weight: 2, arbitrary: v01Entry },
  { weight: 1, arbitrary: draftEntry },
  { weight: 1, arbitrary: customEntry },
  { weight: 1, arbitrary: oddValue },
);

const root = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        $schema: fc.oneof(fc.constant(KNOWN_SCHEMA), fc.constantFrom(KNOWN_SCHEMA.toUpperCase(), 'https://schemas.agentskills.io/discovery/0.1.0/schema.json'), oddValue),
        skills: fc.oneof({ weight: 8, arbitrary: fc.array(entry, { maxLength: 6 }) }, { weight: 1, arbitrary: oddValue }),
        signing_alg: fc.oneof(fc.constantFrom('ed25519', 'Ed25519', 'rsa'), oddValue),
        signing_key: fc.oneof(fc.base64String({ maxLength: 48 }), oddValue),
        extra: oddValue,
      },
      { requiredKeys: ['skills'] },
    ),
  },
  { weight: 1, arbitrary: oddValue },
);

const document = fc.oneof({ weight: 12, arbitrary: jsonText(root) }, { weight: 1, arbitrary: hostileText(10) });

/** What JSON.parse makes of the text, to hold parseIndex to the document's own shape. */
function expectedShape(bytes: Uint8Array): { kind: 'bad-json' | 'not-object' | 'no-skills' } | { kind: 'ok'; skills: unknown[] } {
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(bytes));
  } catch {
    return { kind: 'bad-json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'not-object' };
  const skills = Object.hasOwn(value, 'skills') ? (value as Record<string, unknown>)['skills'] : undefined;
  return Array.isArray(skills) ? { kind: 'ok', skills } : { kind: 'no-skills' };
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

export const indexJsonTarget: FuzzTarget = {
  id: 'index-json',
  entry: 'parseIndex (lib/parse/index-json.ts, index-entry.ts)',
  inputs: 'index documents with url, v0.1, draft, custom and non-object entries holding odd values; repeated keys, truncation, deep nesting, __proto__ keys, byte edits',
  property: () =>
    fc.property(textBytes(document), base, fc.constantFrom('index' as const, 'legacy-index' as const), (bytes, b, source) => {
      const out = call('parseIndex', () => parseIndex(bytes, b.finalUrl, b.origin, source));
      const want = expectedShape(bytes);
      if ('invalid' in out) {
        checkCode(out.code, 'index (invalid)');
        seen(out.code);
        const code = { 'bad-json': 'index-invalid-json', 'not-object': 'index-not-object', 'no-skills': 'index-no-skills-array', ok: null }[want.kind];
        check(out.code === code, `the index is refused as ${out.code}, but JSON.parse says ${want.kind}`);
        return;
      }
      check(want.kind === 'ok', `the index parsed although JSON.parse says ${want.kind}`);
      const skills = want.kind === 'ok' ? want.skills : [];
      const parsed = out as ParsedIndex;
      check(parsed.source === source, 'the source changed');
      check(['v0.2', 'v0.1', 'mixed', 'empty', 'other'].includes(parsed.shape), `shape ${parsed.shape}`);
      check((parsed.shape === 'empty') === (skills.length === 0), `shape ${parsed.shape} for ${skills.length} entries`);
      check(parsed.signingAlg === null || typeof parsed.signingAlg === 'string', 'signingAlg is not a string');
      check(parsed.signingKey === null || typeof parsed.signingKey === 'string', 'signingKey is not a string');
      const positions = skills.flatMap((e, i) => (isObject(e) ? [i] : []));
      check(JSON.stringify(parsed.candidates.map((c) => c.position)) === JSON.stringify(positions), 'the candidates are not the object entries, in order');
      checkDiagnostics(parsed.diagnostics, 'index');
      seen(`shape/${parsed.shape}`);
      for (const d of parsed.diagnostics) seen(d.code);
      check(parsed.diagnostics.filter((d) => d.code === 'index-duplicate-key').length <= 20, 'over 20 duplicate-key diagnostics');
      for (const c of parsed.candidates) {
        check(c.source === source, `entry ${c.position}: source ${c.source}`);
        checkCandidate(c, b.origin, `index entry ${c.position}`);
        seen(c.refusal === null ? 'candidate' : `refused/${c.refusal.code}`);
        for (const d of c.diagnostics) seen(d.code);
      }
    }),
};
