import { describe, expect, it } from 'vitest';
import { compareMetadata, FRONTMATTER_MAX_BYTES, parseFrontmatter } from '../../../lib/parse/skill-md';
import { blankCandidate } from '../../../lib/parse/common';
import type { SkillCandidate } from '../../../lib/parse/candidate';
import { codes, enc } from './helpers';

const fm = (text: string) => parseFrontmatter(enc(text));

describe('parseFrontmatter: delimiters', () => {
  it('reads a simple frontmatter', () => {
    const r = fm('---\nname: pdf-processing\ndescription: Extract text.\nlicense: MIT\ncompatibility: any\nversion: "1.0.0"\n---\n# Body\n');
    expect(r).toMatchObject({
      name: 'pdf-processing',
      description: 'Extract text.',
      license: 'MIT',
      compatibility: 'any',
      version: '1.0.0',
      versionIsNonString: false,
      diagnostics: [],
    });
    expect(r.data).toEqual({ name: 'pdf-processing', description: 'Extract text.', license: 'MIT', compatibility: 'any', version: '1.0.0' });
  });
  it('accepts CRLF and a BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('---\r\nname: a\r\ndescription: b\r\n---\r\nbody')]);
    expect(parseFrontmatter(bytes)).toMatchObject({ name: 'a', description: 'b', diagnostics: [] });
  });
  it.each([
    ['no delimiter', '# Title\nname: a\n'],
    ['empty file', ''],
    ['leading blank line', '\n---\nname: a\n---\n'],
    ['trailing spaces on the opener', '--- \nname: a\n---\n'],
    ['four dashes', '----\nname: a\n----\n'],
    ['indented opener', ' ---\nname: a\n---\n'],
  ])('%s → frontmatter-missing', (_label, text) => {
    const r = fm(text);
    expect(r.data).toBeNull();
    expect(codes(r.diagnostics)).toEqual(['frontmatter-missing']);
  });
  it('ends at the next line that is exactly ---, not at --- inside a value', () => {
    const r = fm('---\nname: a\ndescription: "x --- y"\nnote: |\n  ---not a delimiter\n---\nbody\n---\nmore');
    expect(r.description).toBe('x --- y');
    expect(r.data?.note).toBe('---not a delimiter\n');
  });
  it('reports an unterminated frontmatter', () => {
    expect(codes(fm('---\nname: a\n').diagnostics)).toEqual(['frontmatter-unterminated']);
  });
  it('refuses a frontmatter over the size cap without parsing it', () => {
    const big = `---\nname: a\ndescription: ${'x'.repeat(FRONTMATTER_MAX_BYTES)}\n---\n`;
    expect(codes(fm(big).diagnostics)).toEqual(['frontmatter-too-large']);
    const multibyte = `---\nd: ${'é'.repeat(FRONTMATTER_MAX_BYTES / 2 + 10)}\n---\n`;
    expect(codes(fm(multibyte).diagnostics)).toEqual(['frontmatter-too-large']);
    const unterminated = `---\n${'k: v\n'.repeat(100_000)}`;
    expect(codes(fm(unterminated).diagnostics)).toEqual(['frontmatter-too-large']);
  });
});

describe('parseFrontmatter: YAML safety', () => {
  it('reports a plain scalar containing ": " as a YAML error (never throws)', () => {
    const r = fm('---\nname: a\ndescription: Use when: the user asks\n---\n');
    expect(r.data).toBeNull();
    expect(r.name).toBeNull();
    expect(codes(r.diagnostics)).toContain('frontmatter-yaml-error');
  });
  it('treats duplicate keys as an error', () => {
    const r = fm('---\nname: a\nname: b\ndescription: d\n---\n');
    expect(r.data).toBeNull();
    expect(codes(r.diagnostics)).toEqual(['frontmatter-duplicate-key']);
  });
  it('refuses alias bombs', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
    ].join('\n');
    const r = fm(`---\nname: a\n${bomb}\n---\n`);
    expect(r.data).toBeNull();
    expect(codes(r.diagnostics)).toEqual(['frontmatter-alias-limit']);
  });
  it('allows a few aliases', () => {
    const r = fm('---\nname: a\ndescription: &d text\nsummary: *d\n---\n');
    expect(r.data?.summary).toBe('text');
  });
  it('resolves no custom tags (they stay strings, with a warning)', () => {
    const r = fm('---\nname: !!python/object:os.system echo\ndescription: !custom d\n---\n');
    expect(r.name).toBe('echo');
    expect(codes(r.diagnostics).filter((c) => c === 'frontmatter-yaml-warning').length).toBeGreaterThan(0);
  });
  it('uses the core schema: no timestamps, no merge keys', () => {
    const r = fm('---\nname: a\ndescription: d\ndate: 2001-01-01\nbase: &b {x: 1}\nm:\n  <<: *b\n---\n');
    expect(r.data?.date).toBe('2001-01-01');
    expect(r.data?.m).toEqual({ '<<': { x: 1 } });
  });
  it('keeps __proto__ as plain data in a null-prototype object', () => {
    const r = fm('---\nname: a\ndescription: d\n__proto__: {polluted: 1}\nconstructor: c\n---\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(r.data)).toBeNull();
    expect(Object.keys(r.data ?? {})).toContain('__proto__');
    expect(r.name).toBe('a');
  });
  it.each([
    ['a list', '- a\n- b'],
    ['a scalar', 'just text'],
    ['nothing', ''],
    ['null', '~'],
  ])('%s is not a mapping', (_label, body) => {
    const r = fm(`---\n${body}\n---\n`);
    expect(r.data).toBeNull();
    expect(codes(r.diagnostics)).toEqual(['frontmatter-not-mapping']);
  });
  it('parses block scalars for the description', () => {
    const r = fm('---\nname: a\ndescription: >\n  folded\n  text\n---\n');
    expect(r.description).toBe('folded text\n');
  });
  it('handles hostile YAML input without throwing', () => {
    for (const body of ['{{{{{{', '[[[[', '"unterminated', '? ? ? ?', 'a: *missing', '&a [*a]', '%YAML 9.9\n---\na: 1', 'a:\n\t- tab']) {
      expect(() => fm(`---\n${body}\n---\n`)).not.toThrow();
    }
    expect(() => fm(`---\n${'['.repeat(20_000)}\n---\n`)).not.toThrow();
    expect(() => parseFrontmatter(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d]))).not.toThrow();
  });
});

describe('parseFrontmatter: fields', () => {
  it('extracts fields only when they are strings', () => {
    const r = fm('---\nname: [a]\ndescription: 5\nlicense: {x: 1}\ncompatibility: true\n---\n');
    expect(r).toMatchObject({ name: null, description: null, license: null, compatibility: null, version: null });
    expect(codes(r.diagnostics)).toEqual(['frontmatter-name-missing', 'frontmatter-description-missing']);
  });
  it('records a non-string version', () => {
    for (const v of ['1.0', '1', 'null', '[1]']) {
      const r = fm(`---\nname: a\ndescription: d\nversion: ${v}\n---\n`);
      expect(r.version).toBeNull();
      expect(r.versionIsNonString).toBe(true);
      expect(codes(r.diagnostics)).toEqual(['frontmatter-version-not-string']);
    }
    expect(fm('---\nname: a\ndescription: d\n---\n').versionIsNonString).toBe(false);
    expect(fm('---\nname: a\ndescription: d\nversion: "1.0"\n---\n').version).toBe('1.0');
  });
  it('warns (only) about names that break the rule', () => {
    for (const name of ['SDFrame', 'snake_case', 'a--b', '-a', 'a-', 'ünïcode', '"has space"', 'x'.repeat(65)]) {
      const r = fm(`---\nname: ${name}\ndescription: d\n---\n`);
      expect(r.name).not.toBeNull();
      expect(codes(r.diagnostics)).toEqual(['frontmatter-name-rule']);
    }
    expect(fm(`---\nname: ${'x'.repeat(64)}\ndescription: d\n---\n`).diagnostics).toEqual([]);
  });
  it('warns (only) about descriptions outside 1–1024 characters', () => {
    expect(codes(fm('---\nname: a\ndescription: ""\n---\n').diagnostics)).toEqual(['frontmatter-description-length']);
    const long = fm(`---\nname: a\ndescription: ${'d'.repeat(1025)}\n---\n`);
    expect(long.description).toHaveLength(1025);
    expect(codes(long.diagnostics)).toEqual(['frontmatter-description-length']);
    expect(fm(`---\nname: a\ndescription: ${'d'.repeat(1024)}\n---\n`).diagnostics).toEqual([]);
  });
  it('warns about a compatibility field over 500 characters', () => {
    expect(codes(fm(`---\nname: a\ndescription: d\ncompatibility: ${'c'.repeat(501)}\n---\n`).diagnostics)).toEqual(['frontmatter-compatibility-length']);
  });
});

function cand(source: SkillCandidate['source'], name: string | null, description: string | null, diagnostics: SkillCandidate['diagnostics'] = []): SkillCandidate {
  return { ...blankCandidate(source, 0, '/a/SKILL.md'), url: 'https://example.test/a/SKILL.md', name, description, diagnostics };
}

describe('compareMetadata', () => {
  const parsed = fm('---\nname: café\ndescription: "  Does things.  "\n---\n');
  it('finds nothing when names and descriptions agree after NFC and trim', () => {
    const decomposed = 'cafe\u0301';
    expect(compareMetadata(parsed, [cand('index', ` ${decomposed} `, 'Does things.'), cand('llms-txt', 'café', 'Does things.')])).toEqual([]);
  });
  it('reports a differing name and description per source', () => {
    const out = compareMetadata(parsed, [cand('index', 'other', 'Something else.'), cand('llms-txt', 'café', 'Different.')]);
    expect(codes(out)).toEqual(['name-differs', 'description-differs', 'description-differs']);
    expect(out.every((d) => d.level === 'warning')).toBe(true);
    expect(out[0]?.message).toContain('the index');
    expect(out[2]?.message).toContain('llms.txt');
  });
  it('does not compare missing values or a name the index did not state', () => {
    expect(compareMetadata(parsed, [cand('index', null, null), cand('llms-txt', 'café', '')])).toEqual([]);
    const fallback = cand('index', 'SKILL.md', 'Does things.', [{ code: 'index-name-missing', level: 'info', message: '' }]);
    expect(compareMetadata(parsed, [fallback])).toEqual([]);
    expect(compareMetadata(fm('no frontmatter'), [cand('index', 'x', 'y')])).toEqual([]);
  });
});
