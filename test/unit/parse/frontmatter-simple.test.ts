import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { simpleFrontmatter } from '../../../lib/parse/frontmatter-simple';
import { parseFrontmatter } from '../../../lib/parse/skill-md';
import { skillMarkdown } from '../../../scripts/lib/publisher-site.mjs';
import { CORPUS } from '../../support/corpus-sites';

/** What the full parser makes of a block, with the product's options; null when it errs or warns. */
function viaYaml(block: string): unknown {
  const doc = parseDocument(block, { schema: 'core', customTags: [], uniqueKeys: true, merge: false, prettyErrors: false });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return null;
  return doc.toJS({ maxAliasCount: 50 });
}

function blockOf(text: string): string | null {
  const m = /^---\r?\n([\s\S]*?\r?\n)---(?:\r?\n|$)/.exec(text);
  return m ? (m[1] as string) : null;
}

/** Accepted blocks must read exactly as YAML reads them. */
function agrees(block: string): boolean {
  const fast = simpleFrontmatter(block);
  if (fast === null) return true;
  expect({ ...fast }, JSON.stringify(block)).toEqual(viaYaml(block));
  return false;
}

function skillFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) skillFiles(p, out);
    else if (name === 'SKILL.md') out.push(p);
  }
  return out;
}

describe('simpleFrontmatter', () => {
  it('reads the publisher form (plain and double-quoted values) as YAML does', () => {
    const text = skillMarkdown({ name: 'search-docs', description: "Search this site's docs: cite the page.", version: '1.2.0', license: 'MIT' });
    const block = blockOf(text) as string;
    expect(simpleFrontmatter(block)).toEqual({ name: 'search-docs', description: "Search this site's docs: cite the page.", version: '1.2.0', license: 'MIT' });
    agrees(block);
  });

  it('leaves to the YAML parser everything outside the simple form', () => {
    const refused = [
      'name: true\n',
      'name: null\n',
      'name: 1.0\n',
      'version: 0x1F\n',
      'name: a # comment\n',
      'name: a: b\n',
      'name: "a\\nb"\n',
      "name: 'quoted'\n",
      'name: a\nname: b\n',
      'name: a\n\ndescription: b\n',
      'name:\ta\n',
      'name: a\r\n',
      'name: a \n',
      '  name: a\n',
      'name: [a, b]\n',
      'name: {a: b}\n',
      'name: |\n  text\n',
      'name: >\n  text\n',
      'name: &x a\n',
      'name: *x\n',
      'name: !tag a\n',
      'true: a\n',
      'null: a\n',
      '_x: a\n',
      'name: ~\n',
      'name: -a\n',
      'name: "é"\n',
      'name: a\n  b\n',
      'name:  a\n',
      'name: a  b\n',
      '',
      'name: a\n- b\n',
      'name: ""x\n',
      "name: a's 'x'\n",
    ];
    for (const block of refused) expect(simpleFrontmatter(block), JSON.stringify(block)).toBeNull();
  });

  it('agrees with YAML on every SKILL.md of the corpus', () => {
    const files = skillFiles(CORPUS);
    expect(files.length).toBeGreaterThan(100);
    let fast = 0;
    for (const f of files) {
      const block = blockOf(readFileSync(f, 'utf8').replace(/^\uFEFF/, ''));
      if (block !== null && !agrees(block)) fast++;
    }
    // The fast path is not dead code: a real share of the corpus takes it.
    expect(fast).toBeGreaterThan(0);
  });

  it('agrees with YAML on generated lines of tricky characters', () => {
    const alphabet = ['a', 'Z', '0', ' ', '.', ',', '-', '_', '/', '+', "'", '(', ')', '"', ':', '#', '\\', '!', '&', '*', '%', '@', '`', '|', '>', '?', '[', '{', '~', '=', 'é'];
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 4000; i++) {
      const len = 1 + rnd(12);
      let v = rnd(3) === 0 ? '"' : String.fromCharCode(97 + rnd(26));
      for (let j = 0; j < len; j++) v += alphabet[rnd(alphabet.length)];
      if (v.startsWith('"') && rnd(2) === 0) v += '"';
      agrees(`name: ${v}\ndescription: plain words\n`);
    }
  });

  it('parseFrontmatter gives the same result through either path', () => {
    const text = skillMarkdown({ name: 'api-client', description: 'Call the API: pages and limits.', version: '2.0.0', license: 'MIT' });
    const direct = parseFrontmatter(new TextEncoder().encode(text));
    // The same content in a form only the YAML parser reads (a comment line).
    const viaFull = parseFrontmatter(new TextEncoder().encode(text.replace('---\n', '---\n# comment\n')));
    expect(direct).toEqual(viaFull);
    expect(direct.name).toBe('api-client');
    expect(direct.diagnostics).toEqual([]);
  });
});
