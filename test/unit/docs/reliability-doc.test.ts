// docs/reliability.md is written by `npm run docs` (and its fuzzing section by `npm run fuzz`),
// never by a test run. This test fails when the committed document is out of date with the
// cases: a case added, removed, renamed or given another expected outcome without regenerating,
// or a fuzz target added or removed without a full fuzz run.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_CASES, countByCategory } from '../../hostile/catalogue';
import { expectedText } from '../../hostile/outcome';
import { CATEGORIES } from '../../hostile/types';
import { FUZZ_TARGETS } from '../../fuzz/targets';
import { cell } from '../../../scripts/lib/doc-sections.mjs';
import { extractFuzzSection, FULL_FUZZ_RUNS } from '../../../scripts/lib/reliability-report.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DOC = process.env['RELIABILITY_DOC'] ?? resolve(ROOT, 'docs/reliability.md');
const md = readFileSync(DOC, 'utf8');
const fuzz = extractFuzzSection(md);
const hostilePart = fuzz === null ? md : md.replace(fuzz, '');

/** Table cells of a markdown row (escaped pipes stay inside their cell). */
function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The rows of the table under `## heading`, up to the next heading. */
function sectionRows(text: string, heading: string): string[][] {
  const lines = text.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('| `')) rows.push(cells(line));
  }
  return rows;
}

const wrap = (id: string): string => `\`${id}\``;

describe('docs/reliability.md is up to date with the cases (regenerate with npm run docs)', () => {
  it('lists every hostile case once, in its category, with its current title and expected outcome', () => {
    const problems: string[] = [];
    for (const category of CATEGORIES) {
      const rows = sectionRows(hostilePart, category);
      const listed = new Map(rows.map((r) => [r[0] ?? '', r]));
      const cases = ALL_CASES.filter((c) => c.category === category);
      for (const c of cases) {
        const row = listed.get(wrap(c.id));
        if (!row) {
          problems.push(`${c.id}: not in the ${category} table`);
          continue;
        }
        if (row[1] !== cell(c.title)) problems.push(`${c.id}: title differs`);
        const assert = c.browser?.include && c.browser.assert ? `<br>browser check: ${cell(c.browser.assert)}` : '';
        if (row[2] !== `${cell(expectedText(c))}${assert}`.trim()) problems.push(`${c.id}: expected outcome differs`);
      }
      const ids = new Set(cases.map((c) => wrap(c.id)));
      for (const id of listed.keys()) if (!ids.has(id)) problems.push(`${id}: listed under ${category} but no such case there`);
      if (rows.length !== listed.size) problems.push(`${category}: a case is listed twice`);
    }
    expect(problems).toEqual([]);
  });

  it('counts the cases of every category as the catalogue does', () => {
    const counts = countByCategory();
    const table = hostilePart
      .split('\n')
      .filter((l) => /^\| [a-z-]+ \| \d+ \|/.test(l))
      .map(cells);
    expect(Object.fromEntries(table.map((r) => [r[0], Number(r[1])]))).toEqual(Object.fromEntries(CATEGORIES.filter((c) => counts[c] > 0).map((c) => [c, counts[c]])));
  });

  it('holds no timestamp outside the fuzzing section, so regenerating from the same results changes nothing', () => {
    expect(hostilePart).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  it(`lists exactly the fuzz targets defined, each run at least ${FULL_FUZZ_RUNS.toLocaleString('en')} times without a failure`, () => {
    expect(fuzz, 'no fuzzing section: run npm run fuzz').not.toBeNull();
    const rows = sectionRows(fuzz ?? '', 'Fuzzing the parsers and the unpacker');
    expect(rows.map((r) => r[0])).toEqual(FUZZ_TARGETS.map((t) => wrap(t.id)));
    for (const r of rows) {
      expect(Number((r[3] ?? '').replace(/,/g, '')), `${r[0]} runs`).toBeGreaterThanOrEqual(FULL_FUZZ_RUNS);
      expect(r[4], `${r[0]} failed`).toBe('0');
    }
  });
});
