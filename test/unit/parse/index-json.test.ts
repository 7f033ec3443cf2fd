// The well-known index parser, section by section of FORMATS.md §2.
import { describe, expect, it } from 'vitest';
import { KNOWN_SCHEMA, parseIndex } from '../../../lib/parse/index-json';
import type { InvalidDocument, ParsedIndex } from '../../../lib/parse/index-json';
import type { SkillCandidate } from '../../../lib/parse/candidate';
import { codes, enc, HEX_A, HEX_B, INDEX_URL, LEGACY_URL, ORIGIN } from './helpers';

function parseText(text: string, finalUrl = INDEX_URL, source: 'index' | 'legacy-index' = 'index'): ParsedIndex | InvalidDocument {
  return parseIndex(enc(text), finalUrl, ORIGIN, source);
}

function ok(value: unknown, finalUrl = INDEX_URL, source: 'index' | 'legacy-index' = 'index'): ParsedIndex {
  const r = parseText(JSON.stringify(value), finalUrl, source);
  if ('invalid' in r) throw new Error(`unexpected invalid document: ${r.code}`);
  return r;
}

function entry(e: unknown): SkillCandidate {
  const c = ok({ $schema: KNOWN_SCHEMA, skills: [e] }).candidates[0];
  if (!c) throw new Error('no candidate');
  return c;
}

function invalidCode(text: string): string | null {
  const r = parseText(text);
  return 'invalid' in r ? r.code : null;
}

describe('parseIndex: the document', () => {
  it('refuses text that is not JSON', () => {
    expect(invalidCode('{"skills": [')).toBe('index-invalid-json');
    expect(invalidCode('<html></html>')).toBe('index-invalid-json');
    expect(invalidCode('')).toBe('index-invalid-json');
  });
  it('refuses a top level that is not an object', () => {
    expect(invalidCode('[]')).toBe('index-not-object');
    expect(invalidCode('null')).toBe('index-not-object');
    expect(invalidCode('"skills"')).toBe('index-not-object');
  });
  it('refuses an object without a skills array', () => {
    expect(invalidCode('{}')).toBe('index-no-skills-array');
    expect(invalidCode('{"skills": {}}')).toBe('index-no-skills-array');
    expect(invalidCode('{"skills": null}')).toBe('index-no-skills-array');
    expect(invalidCode('{"__proto__": {"skills": []}}')).toBe('index-no-skills-array');
  });
  it('strips a BOM, accepts tabs and a missing final newline', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{\n\t"skills": []}')]);
    const r = parseIndex(bytes, INDEX_URL, ORIGIN, 'index');
    expect('invalid' in r).toBe(false);
  });
  it('an empty skills array is a valid index with no skills', () => {
    const r = ok({ $schema: KNOWN_SCHEMA, skills: [] });
    expect(r).toMatchObject({ shape: 'empty', candidates: [], diagnostics: [], source: 'index', schema: KNOWN_SCHEMA });
  });
  it('warns about an absent, unknown or non-string $schema and keeps going', () => {
    expect(codes(ok({ skills: [] }).diagnostics)).toEqual(['index-unknown-schema']);
    const other = ok({ $schema: 'https://schemas.lovable.dev/agent-skills/v1.json', skills: [] });
    expect(other.schema).toBe('https://schemas.lovable.dev/agent-skills/v1.json');
    expect(codes(other.diagnostics)).toEqual(['index-unknown-schema']);
    const nonString = ok({ $schema: 7, skills: [] });
    expect(nonString.schema).toBeNull();
    expect(codes(nonString.diagnostics)).toEqual(['index-unknown-schema']);
  });
  it('ignores unknown top-level keys', () => {
    const r = ok({ $schema: KNOWN_SCHEMA, version: '1', publisher: { name: 'x' }, instructions: 'y', skills: [] });
    expect(r.diagnostics).toEqual([]);
  });
  it('records signing_alg and signing_key verbatim', () => {
    const r = ok({ $schema: KNOWN_SCHEMA, signing_alg: 'ED25519 ', signing_key: 'not base64!', skills: [] });
    expect(r.signingAlg).toBe('ED25519 ');
    expect(r.signingKey).toBe('not base64!');
    const bad = ok({ $schema: KNOWN_SCHEMA, signing_alg: 1, signing_key: ['k'], skills: [] });
    expect(bad.signingAlg).toBeNull();
    expect(bad.signingKey).toBeNull();
    expect(codes(bad.diagnostics)).toEqual(['index-signing-field-type', 'index-signing-field-type']);
  });
  it('keeps the source it was given', () => {
    expect(ok({ skills: [] }, LEGACY_URL, 'legacy-index').source).toBe('legacy-index');
  });
});

describe('parseIndex: hostile JSON', () => {
  it('survives deep nesting', () => {
    const depth = 200_000;
    const text = `{"skills":[${'['.repeat(depth)}${']'.repeat(depth)}]}`;
    const r = parseText(text);
    if ('invalid' in r) expect(r.code).toBe('index-invalid-json');
    else expect(codes(r.diagnostics)).toContain('index-entry-not-object');
    const unbalanced = parseText(`{"skills":${'['.repeat(depth)}`);
    expect('invalid' in unbalanced && unbalanced.code).toBe('index-invalid-json');
  });
  it('reports duplicate keys; the last value is the one used', () => {
    const text = `{"skills":[{"name":"a","url":"/a/SKILL.md","sha256":"${HEX_A}","sha256":"${HEX_B}"}],"skills":[{"name":"b","url":"/b/SKILL.md"}]}`;
    const r = parseText(text);
    if ('invalid' in r) throw new Error('invalid');
    expect(r.candidates.map((c) => c.name)).toEqual(['b']);
    expect(codes(r.diagnostics)).toEqual(['index-duplicate-key', 'index-duplicate-key', 'index-unknown-schema']);
    expect(r.diagnostics[0]?.message).toContain('sha256');
  });
  it('sees escaped duplicate keys as duplicates and keys in different objects as distinct', () => {
    const r = parseText('{"skills":[{"name":"a","n\\u0061me":"b","url":"/x"},{"name":"c","url":"/y"}]}');
    if ('invalid' in r) throw new Error('invalid');
    expect(codes(r.diagnostics).filter((c) => c === 'index-duplicate-key')).toHaveLength(1);
  });
  it('does not let __proto__ or constructor keys pollute or leak', () => {
    const text = `{"__proto__":{"polluted":1,"skills":[]},"constructor":{"prototype":{"polluted":2}},"skills":[{"__proto__":{"url":"/evil","sha256":"x"},"name":"a","url":"/a/SKILL.md","constructor":"c","toString":"t"},{"__proto__":{"files":["SKILL.md"]},"name":"b"}]}`;
    const r = parseText(text);
    if ('invalid' in r) throw new Error('invalid');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.candidates[0]).toMatchObject({ url: 'https://example.test/a/SKILL.md', refusal: null, declared: [] });
    expect(r.candidates[1]?.refusal?.code).toBe('index-custom-shape');
  });
  it('parses 10,000 entries', () => {
    const skills = Array.from({ length: 10_000 }, (_, i) => ({ name: `s${i}`, type: 'skill-md', url: `/s/${i}/SKILL.md`, digest: `sha256:${HEX_A}` }));
    const r = ok({ $schema: KNOWN_SCHEMA, skills });
    expect(r.candidates).toHaveLength(10_000);
    expect(r.candidates[9_999]).toMatchObject({ position: 9_999, url: 'https://example.test/s/9999/SKILL.md' });
  });
  it('skips non-object entries with a warning', () => {
    const r = ok({ $schema: KNOWN_SCHEMA, skills: [null, 1, 'x', [], true, { name: 'a', url: '/a/SKILL.md' }] });
    expect(r.candidates.map((c) => [c.name, c.position])).toEqual([['a', 5]]);
    expect(codes(r.diagnostics)).toEqual(Array(5).fill('index-entry-not-object'));
  });
});

describe('parseIndex: entry shapes (§2.3)', () => {
  it('a string url makes a URL entry even with files or path beside it', () => {
    const c = entry({ name: 'x', url: '/x/SKILL.md', path: 'x', files: ['SKILL.md'] });
    expect(c).toMatchObject({ url: 'https://example.test/x/SKILL.md', refusal: null });
  });
  it('files of strings and no url is v0.1', () => {
    const c = entry({ name: 'wrangler', files: ['SKILL.md', 'references/a.md'] });
    expect(c).toMatchObject({ url: 'https://example.test/.well-known/agent-skills/wrangler/SKILL.md', refusal: null, declared: [] });
  });
  it('files of {path,digest} objects (superseded draft) is unsupported', () => {
    const c = entry({ name: 'w', digest: `sha256:${HEX_A}`, files: [{ path: 'SKILL.md', digest: `sha256:${HEX_A}` }] });
    expect(c.refusal).toMatchObject({ status: 'unsupported', code: 'index-draft-files-objects' });
    expect(c.url).toBeNull();
  });
  it.each([
    [{ name: 'a', path: 'a/SKILL.md' }],
    [{ id: 'a', label: 'A' }],
    [{ name: 'a', inputSchema: {} }],
    [{ id: 'a', schema: {} }],
    [{ name: 'a', url: 42 }],
    [{ name: 'a', files: [1, 2] }],
    [{ name: 'a', files: 'SKILL.md' }],
    [{}],
    [{ name: 'a', url: null, files: ['SKILL.md'] }],
    [{ name: 'a', files: ['SKILL.md', { path: 'x' }] }],
  ])('custom shape %j is unsupported', (e) => {
    const c = entry(e);
    expect(c.refusal).toMatchObject({ status: 'unsupported', code: 'index-custom-shape' });
    expect(c.url).toBeNull();
  });
  it('custom entries keep a display name from name/id/title/label', () => {
    expect(entry({ id: 'the-id', label: 'L' }).name).toBe('the-id');
    expect(entry({ label: 'L', path: 'p' })).toMatchObject({ name: 'L', rawUrl: 'p' });
  });
  it('detects the document shape from the entries', () => {
    const url = { name: 'a', url: '/a/SKILL.md' };
    const v01 = { name: 'b', files: ['SKILL.md'] };
    const custom = { name: 'c', path: 'c' };
    expect(ok({ skills: [url] }).shape).toBe('v0.2');
    expect(ok({ skills: [url, custom] }).shape).toBe('v0.2');
    expect(ok({ skills: [v01] }).shape).toBe('v0.1');
    expect(ok({ skills: [url, v01] }).shape).toBe('mixed');
    expect(ok({ skills: [custom, 5] }).shape).toBe('other');
    expect(ok({ skills: [] }).shape).toBe('empty');
  });
  it('reads v0.2 JSON at the legacy path and v0.1 JSON at the current path', () => {
    expect(ok({ skills: [{ name: 'a', url: './a/SKILL.md' }] }, LEGACY_URL, 'legacy-index').candidates[0]?.url).toBe('https://example.test/.well-known/skills/a/SKILL.md');
    expect(ok({ skills: [{ name: 'b', files: ['SKILL.md'] }] }).candidates[0]?.source).toBe('index');
  });
});

describe('parseIndex: URL entries (§2.4)', () => {
  it('reads every field of a v0.2 entry', () => {
    const c = entry({
      name: 'code-review',
      type: 'skill-md',
      description: 'Review code.',
      url: '/.well-known/agent-skills/code-review/SKILL.md#x',
      digest: `sha256:${HEX_A.toUpperCase()}`,
      version: '1.0.0',
      license: 'MIT',
      homepage: 'https://example.test/h',
      signature: 'c2ln',
      tool: '/t.js',
      tool_sha256: HEX_B,
      integrity: 'sha256-abc=',
      tags: ['x'],
    });
    expect(c).toMatchObject({
      source: 'index',
      position: 0,
      rawUrl: '/.well-known/agent-skills/code-review/SKILL.md#x',
      url: 'https://example.test/.well-known/agent-skills/code-review/SKILL.md',
      type: 'skill-md',
      name: 'code-review',
      description: 'Review code.',
      version: '1.0.0',
      license: 'MIT',
      homepage: 'https://example.test/h',
      signature: 'c2ln',
      tool: '/t.js',
      toolSha256: HEX_B,
      refusal: null,
      diagnostics: [],
    });
    expect(c.declared).toEqual([{ source: 'index', field: 'index-digest', hex: HEX_A }]);
  });
  it('resolves ./relative URLs against the index directory', () => {
    expect(entry({ name: 'w', url: './worktrunk/SKILL.md' }).url).toBe('https://example.test/.well-known/agent-skills/worktrunk/SKILL.md');
  });
  it('infers the type when absent', () => {
    expect(entry({ name: 'a', url: '/a.tar.gz' }).type).toBe('archive');
    expect(entry({ name: 'a', url: '/a.Zip' }).type).toBe('archive');
    expect(entry({ name: 'a', url: '/a/SKILL.md' }).type).toBe('skill-md');
    expect(entry({ name: 'a', url: '/a.tgz' }).type).toBe('skill-md');
  });
  it('keeps an explicit type even when the URL suggests another', () => {
    expect(entry({ name: 'a', type: 'skill-md', url: '/a.zip' }).type).toBe('skill-md');
    expect(entry({ name: 'a', type: 'archive', url: '/a/SKILL.md' }).type).toBe('archive');
  });
  it.each(['task', 'tool', 'skill', 'content', 'documentation', 'reference', 'api', 'Skill-MD', '', null, 3, ['skill-md']])('type %j is unsupported and the entry is never fetched', (type) => {
    const c = entry({ name: 'a', type, url: '/a/SKILL.md' });
    expect(c.refusal).toMatchObject({ status: 'unsupported', code: 'index-type-unsupported' });
  });
  it('an unsupported type wins over an invalid digest and URL; those stay as diagnostics', () => {
    const c = entry({ name: 'a', type: 'navigation', url: '__X__/a', sha256: 'PLACEHOLDER_DIGEST' });
    expect(c.refusal?.status).toBe('unsupported');
    expect(codes(c.diagnostics)).toEqual(expect.arrayContaining(['url-placeholder', 'index-sha256-invalid']));
  });
  it('takes the name from id, title, label, then the last URL segment', () => {
    expect(entry({ id: 'i', title: 't', url: '/x/SKILL.md' }).name).toBe('i');
    expect(entry({ title: 't', label: 'l', url: '/x/SKILL.md' }).name).toBe('t');
    expect(entry({ label: 'l', url: '/x/SKILL.md' }).name).toBe('l');
    const c = entry({ url: '/skills/my%20skill.md?x=1' });
    expect(c.name).toBe('my skill.md');
    expect(codes(c.diagnostics)).toEqual(['index-name-missing']);
    expect(entry({ name: 5, url: '/x/y/' }).name).toBe('y');
  });
  it('warns (only) when the name breaks the naming rule', () => {
    for (const name of ['SDFrame', 'snake_case', 'with space', 'a--b', '-a', 'x'.repeat(65)]) {
      const c = entry({ name, url: '/a/SKILL.md' });
      expect(c.refusal).toBeNull();
      expect(codes(c.diagnostics)).toEqual(['index-name-rule']);
    }
    expect(entry({ name: 'ok-name-2', url: '/a/SKILL.md' }).diagnostics).toEqual([]);
  });
  it.each(['sha256:c4d5e6f7...', `sha256-${'A'.repeat(43)}=`, HEX_A, `SHA256:${HEX_A}`, `sha256:${HEX_A}0`, `sha256:${'z'.repeat(64)}`, '', null, 42])(
    'digest %j makes the skill invalid',
    (digest) => {
      const c = entry({ name: 'a', url: '/a/SKILL.md', digest });
      expect(c.refusal).toMatchObject({ status: 'invalid', code: 'index-digest-invalid' });
      expect(c.declared).toEqual([]);
    },
  );
  it.each(['PLACEHOLDER_DIGEST', `sha256:${HEX_A}`, HEX_A.slice(1), '', null, 0])('sha256 %j makes the skill invalid', (sha256) => {
    const c = entry({ name: 'a', url: '/a/SKILL.md', sha256 });
    expect(c.refusal).toMatchObject({ status: 'invalid', code: 'index-sha256-invalid' });
  });
  it('declares both digest and sha256 when both are present (equal or not)', () => {
    const same = entry({ name: 'a', url: '/a/SKILL.md', digest: `sha256:${HEX_A}`, sha256: HEX_A.toUpperCase() });
    expect(same.declared).toEqual([
      { source: 'index', field: 'index-digest', hex: HEX_A },
      { source: 'index', field: 'index-sha256', hex: HEX_A },
    ]);
    const differ = entry({ name: 'a', url: '/a/SKILL.md', digest: `sha256:${HEX_A}`, sha256: HEX_B });
    expect(differ.declared.map((d) => d.hex)).toEqual([HEX_A, HEX_B]);
    expect(differ.refusal).toBeNull();
  });
  it('an SRI integrity is not a declared digest', () => {
    expect(entry({ name: 'a', url: '/a/SKILL.md', integrity: `sha256-${'A'.repeat(43)}=` }).declared).toEqual([]);
  });
  it('applies the URL rules', () => {
    expect(entry({ name: 'a', url: '__PUBLIC_ORIGIN__/a/SKILL.md' }).refusal).toMatchObject({ status: 'invalid', code: 'url-placeholder' });
    expect(entry({ name: 'a', url: '' }).refusal?.code).toBe('url-empty');
    expect(entry({ name: 'a', url: 'file:///etc/passwd' }).refusal?.code).toBe('url-scheme');
    expect(entry({ name: 'a', url: 'https://10.0.0.1/SKILL.md' }).refusal?.code).toBe('url-private-target');
    expect(entry({ name: 'a', url: 'https://raw.githubusercontent.com/o/r/main/SKILL.md' }).refusal).toBeNull();
  });
  it('an invalid URL and an invalid digest: the first invalid reason is the refusal, the other a diagnostic', () => {
    const c = entry({ name: 'a', url: 'data:x', digest: 'sha256:1' });
    expect(c.refusal?.code).toBe('url-scheme');
    expect(codes(c.diagnostics)).toContain('index-digest-invalid');
  });
  it('ignores a non-string signature with a warning', () => {
    const c = entry({ name: 'a', url: '/a/SKILL.md', signature: 7 });
    expect(c.signature).toBeNull();
    expect(codes(c.diagnostics)).toEqual(['index-signature-type']);
  });
  it('records scope, warning when it breaks the pattern', () => {
    expect(entry({ name: 'a', url: '/a/SKILL.md', scope: 'kdd' })).toMatchObject({ scope: 'kdd', diagnostics: [] });
    expect(codes(entry({ name: 'a', url: '/a/SKILL.md', scope: '9x' }).diagnostics)).toEqual(['index-scope-invalid']);
  });
  it('warns about a tool on another origin', () => {
    expect(codes(entry({ name: 'a', url: '/a/SKILL.md', tool: 'https://evil.example/t.js' }).diagnostics)).toEqual(['tool-not-same-origin']);
    expect(entry({ name: 'a', url: '/a/SKILL.md', tool: 'tools/t.js' }).diagnostics).toEqual([]);
  });
  it('warns about a malformed tool_sha256', () => {
    const c = entry({ name: 'a', url: '/a/SKILL.md', tool: '/t.js', tool_sha256: 'nope' });
    expect(c.tool).toBe('/t.js');
    expect(c.toolSha256).toBeNull();
    expect(codes(c.diagnostics)).toEqual(['tool-sha256-invalid']);
  });
});

describe('parseIndex: v0.1 entries (§2.5)', () => {
  const v01 = (name: unknown, files: unknown[]): SkillCandidate => entry({ name, description: 'd', files });

  it('builds the artifact URL from the encoded name, against the index URL', () => {
    const c = v01('data pipeline', ['SKILL.md', 'scripts/run.py']);
    expect(c).toMatchObject({
      rawUrl: 'data%20pipeline/SKILL.md',
      url: 'https://example.test/.well-known/agent-skills/data%20pipeline/SKILL.md',
      type: 'skill-md',
      declared: [],
      refusal: null,
      description: 'd',
    });
    expect(v01('技能', ['SKILL.md']).url).toBe('https://example.test/.well-known/agent-skills/%E6%8A%80%E8%83%BD/SKILL.md');
  });
  it.each(['', '.', '..', 'a/b', 'a\\b', 'a?b', 'a#b', 'a%20b', 'a\u0000b', 'a\nb', 'a\u007fb', 7, null])('name %j is invalid', (name) => {
    const c = v01(name, ['SKILL.md']);
    expect(c.refusal).toMatchObject({ status: 'invalid', code: 'v01-name-invalid' });
    expect(c.url).toBeNull();
  });
  it.each([
    [[], 'v01-files-empty'],
    [['https://raw.githubusercontent.com/o/r/main/SKILL.md'], 'v01-file-not-relative'],
    [['/SKILL.md'], 'v01-file-not-relative'],
    [['SKILL.md', 'C:stuff'], 'v01-file-not-relative'],
    [['SKILL.md', '../x.md'], 'v01-file-dot-dot'],
    [['SKILL.md', 'a/../../x.md'], 'v01-file-dot-dot'],
    [['SKILL.md', 'a\\b.md'], 'v01-file-bad-char'],
    [['SKILL.md', 'a?.md'], 'v01-file-bad-char'],
    [['SKILL.md', 'a#.md'], 'v01-file-bad-char'],
    [['SKILL.md', '[a].md'], 'v01-file-bad-char'],
    [['SKILL.md', 'café.md'], 'v01-file-bad-char'],
    [['SKILL.md', 'a\tb.md'], 'v01-file-bad-char'],
    [['SKILL.md', ''], 'v01-file-empty'],
    [['gmx-trading/SKILL.md', 'gmx-trading/references/x.md'], 'v01-files-no-skill-md'],
    [['skill.md'], 'v01-files-no-skill-md'],
    [['./SKILL.md'], 'v01-files-no-skill-md'],
  ])('files %j is invalid (%s)', (files, code) => {
    const c = v01('ok', files);
    expect(c.refusal).toMatchObject({ status: 'invalid', code });
    expect(c.refusal?.message).toContain('v0.1');
  });
  it('accepts ordinary relative paths, including dots inside names and spaces', () => {
    expect(v01('ok', ['SKILL.md', 'references/a..b.md', 'assets/my file.txt', 'x/y/z.json']).refusal).toBeNull();
  });
  it('a digest field on a v0.1 entry is not used', () => {
    const c = entry({ name: 'a', files: ['SKILL.md'], sha256: HEX_A });
    expect(c.declared).toEqual([]);
    expect(codes(c.diagnostics)).toEqual(['index-v01-digest-ignored']);
  });
});
