// The reviewer on the real corpus (test/fixtures/corpus: every SKILL.md and archive): at most
// ACTS_CEILING_PERCENT of the real skills carry an `acts` finding, each such finding is explained
// (ACTS_EXPLAINED), and docs/reliability.md's review section is what `npm run docs` writes now.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTS_CEILING_PERCENT, extractReviewSection, type ReviewRow, renderReviewSection } from '../../../scripts/lib/review-section.mjs';
import { ACTS_EXPLAINED, reviewRows } from '../../support/corpus-review';

const DOC = resolve(fileURLToPath(new URL('../../../docs/reliability.md', import.meta.url)));
let rows: ReviewRow[] = [];

beforeAll(async () => {
  rows = await reviewRows();
}, 60_000);

describe('the reviewer on real skills', () => {
  it('reviews every SKILL.md and archive of the corpus', () => {
    expect(rows.length).toBeGreaterThan(200);
    expect(rows.some((r) => r.kind === 'archive' && r.refused === null && r.files > 1)).toBe(true);
  });

  it(`at most ${ACTS_CEILING_PERCENT} % of real skills carry an acts finding`, () => {
    const reviewed = rows.filter((r) => r.refused === null);
    const acts = reviewed.filter((r) => r.findings.some((f) => f.severity === 'acts'));
    expect(acts.length / reviewed.length).toBeLessThanOrEqual(ACTS_CEILING_PERCENT / 100);
  });

  it('every acts finding on a real skill is explained, and no explanation is stale', () => {
    const keys = new Set(rows.flatMap((r) => r.findings.filter((f) => f.severity === 'acts').map((f) => `${r.path} ${f.kind}`)));
    expect([...keys].filter((k) => ACTS_EXPLAINED[k] === undefined)).toEqual([]);
    expect(Object.keys(ACTS_EXPLAINED).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('docs/reliability.md holds the current review section (regenerate with npm run docs -- --review-section)', () => {
    expect(extractReviewSection(readFileSync(DOC, 'utf8'))).toBe(renderReviewSection(rows, ACTS_EXPLAINED));
  });
});
