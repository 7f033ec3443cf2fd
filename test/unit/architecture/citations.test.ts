// Every citation of the design documents (PRODUCT.md §2.3, FORMATS.md §9.1–9.3, TOOLCHAIN.md
// "Race", ref/… notes) in a tracked file resolves to a file under docs/design/ and a heading with
// that number or title (docs/design/README.md). The scanner itself is checked first on texts
// whose answer is known, so a scanner that finds nothing cannot pass the repository check.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { DESIGN_DOCS, citationsIn, headingsOf, unresolved } from '../../support/citations';

const ROOT = join(__dirname, '../../..');
const DESIGN = 'docs/design';
/** Where citations may stand: the source tree, the docs, the configuration. */
const SCANNED = /^(lib|components|entrypoints|scripts|test|docs)\/|^(README\.md|wxt\.config\.ts|playwright\.config\.ts|vitest\.config\.ts|\.ci\/run)$/;
const TEXT = /\.(ts|tsx|mts|mjs|js|cjs|md|html|css|json|sh)$|^\.ci\/run$/;
/** The scanner and this test: they quote citations that must not resolve, as examples. Fixtures
 * (test/fixtures/) are other publishers' files, byte-exact, whose section signs are their own. */
const SELF = new Set(['test/support/citations.ts', 'test/unit/architecture/citations.test.ts']);

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !SELF.has(f) && !f.startsWith('test/fixtures/') && SCANNED.test(f) && TEXT.test(f) && existsSync(join(ROOT, f)));
}

/** The file a citation names: the four documents and `ref/`/`reference/` notes live under docs/design. */
function docPath(doc: string): string {
  const note = /^(?:ref|reference)\/(.+)$/.exec(doc);
  return join(DESIGN, note ? `reference/${note[1]}` : doc);
}

function readDoc(doc: string): string | null {
  const path = join(ROOT, docPath(doc));
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** The design document a file is, if it is one (a bare § inside it refers to itself). */
function selfOf(file: string): string | null {
  if (!file.startsWith(`${DESIGN}/`)) return null;
  const rest = file.slice(DESIGN.length + 1);
  if ((DESIGN_DOCS as readonly string[]).includes(rest)) return rest;
  return rest.startsWith('reference/') ? rest : null;
}

describe('the citation scanner', () => {
  const doc = '# T\n\n## 2. Discovery\n\n### 2.3 Every request\n\n### 2.4 Absent\n\n## 9. Decisions\n\n### 9.1 Race: the worker\n\n```\n## 7. not a heading\n```\n';
  const docs = (name: string): string | null => (name === 'PRODUCT.md' ? doc : null);
  const bad = (text: string, self: string | null = null): string[] => unresolved(citationsIn(text, self), docs).map((u) => u.why);

  it('reads numbered and titled headings, outside code fences', () => {
    expect(headingsOf(doc).map((h) => h.number)).toEqual([null, '2', '2.3', '2.4', '9', '9.1']);
    expect(headingsOf(doc).find((h) => h.number === '9.1')?.title).toBe('race: the worker');
  });

  it('accepts sections, ranges, lists and titles that exist', () => {
    expect(bad('// PRODUCT.md §2.3, §2.4 and §9; PRODUCT.md §2.3–2.4')).toEqual([]);
    expect(bad('// (PRODUCT.md §2.3,\n// §9.1) and later (§2.4)')).toEqual([]);
    expect(bad('PRODUCT.md "Race" and PRODUCT.md "Discovery"')).toEqual([]);
    expect(bad('RFC 8032 §7.1 and RFC 4648 §10 are not ours')).toEqual([]);
  });

  it('reports a missing section, range end, title, document or owner', () => {
    expect(bad('PRODUCT.md §2.7')).toEqual(['PRODUCT.md has no section 2.7']);
    expect(bad('PRODUCT.md §2.3–2.6')).toEqual(['PRODUCT.md has no section 2.6']);
    expect(bad('PRODUCT.md §7 is fenced')).toEqual(['PRODUCT.md has no section 7']);
    expect(bad('PRODUCT.md "Racing"')).toEqual(['PRODUCT.md has no section titled "Racing"']);
    expect(bad('see FORMATS.md §1 and ref/corpus-real.md')).toEqual(['no such document: FORMATS.md', 'no such document: FORMATS.md', 'no such document: ref/corpus-real.md']);
    expect(bad('a bare §2.3 with nothing before it')).toEqual(['a section sign with no document cited before it']);
  });

  it('gives a bare § to the document cited last, or inside a design document to itself', () => {
    expect(bad('PRODUCT.md §2.3 says so. Later, the rule of (§9.1) holds.')).toEqual([]);
    expect(bad('FORMATS.md §1 is elsewhere; here (§2.4) is ours', 'PRODUCT.md')).toEqual(['no such document: FORMATS.md', 'no such document: FORMATS.md']);
  });
});

describe('citations in the repository', () => {
  const files = tracked();

  it('scans the source tree and finds the citations it holds', () => {
    expect(files).toContain('lib/net/fetch-bounded.ts');
    expect(files).toContain(`${DESIGN}/PRODUCT.md`);
    const count = files.reduce((n, f) => n + citationsIn(readFileSync(join(ROOT, f), 'utf8'), selfOf(f)).length, 0);
    expect(count).toBeGreaterThan(100);
  });

  it('every citation names a document under docs/design and a section it has', () => {
    const bad = files.flatMap((f) => unresolved(citationsIn(readFileSync(join(ROOT, f), 'utf8'), selfOf(f)), readDoc).map((u) => `${f}:${u.line}: ${u.text} — ${u.why}`));
    expect(bad).toEqual([]);
  });

  it('relative links in the design documents point at files that exist', () => {
    const bad: string[] = [];
    for (const f of files.filter((x) => x.startsWith(`${DESIGN}/`) && x.endsWith('.md'))) {
      // Code (fenced or inline) is not a link: the llms.txt grammar shows `](` url `)`.
      const text = readFileSync(join(ROOT, f), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (m[1] ?? '').split('#')[0] ?? '';
        if (target === '' || /^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(ROOT, normalize(join(dirname(f), target))))) bad.push(`${f}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
