// Every hostile-publisher case, in one list. Imported by the node runner (test/unit/hostile) and
// by the Chromium runner, which plays `browser.include` cases through the built extension.
import { ARCHIVE_CASES } from './cases/archives';
import { CONTENT_CASES } from './cases/content';
import { CRYPTO_TRUST_CASES } from './cases/crypto-trust';
import { FAULT_CASES } from './cases/faults';
import { MESSAGING_CASES } from './cases/messaging';
import { REDIRECT_URL_CASES } from './cases/redirects';
import { RENDERING_CASES } from './cases/rendering';
import { SIZE_TIME_CASES } from './cases/size-time';
import { CATEGORIES, type Category, type HostileCase } from './types';

export const ALL_CASES: readonly HostileCase[] = [
  ...SIZE_TIME_CASES,
  ...ARCHIVE_CASES,
  ...REDIRECT_URL_CASES,
  ...CONTENT_CASES,
  ...CRYPTO_TRUST_CASES,
  ...RENDERING_CASES,
  ...MESSAGING_CASES,
  ...FAULT_CASES,
];

export function caseById(id: string): HostileCase | null {
  return ALL_CASES.find((c) => c.id === id) ?? null;
}

/** The cases a Chromium runner plays. */
export function browserCases(): HostileCase[] {
  return ALL_CASES.filter((c) => c.browser?.include === true);
}

export function countByCategory(cases: readonly HostileCase[] = ALL_CASES): Record<Category, number> {
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  for (const c of cases) out[c.category] += 1;
  return out;
}

/** Problems with the catalogue itself (ids, required parts); empty when it is well-formed. */
export function catalogueProblems(cases: readonly HostileCase[] = ALL_CASES): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(c.id)) problems.push(`${c.id}: id is not kebab-case`);
    if (seen.has(c.id)) problems.push(`${c.id}: duplicate id`);
    seen.add(c.id);
    if (!CATEGORIES.includes(c.category)) problems.push(`${c.id}: unknown category ${c.category}`);
    if ((c.site === undefined) === (c.scenario === undefined)) problems.push(`${c.id}: needs exactly one of site or scenario`);
    if (c.scenario && c.browser) problems.push(`${c.id}: a node scenario cannot be in the browser subset`);
    if (c.browserOnly && !c.browser) problems.push(`${c.id}: browser-only without a browser check`);
    if ((c.category === 'rendering' || c.category === 'messaging') && !c.browserOnly) problems.push(`${c.id}: ${c.category} cases are browser-only`);
    if (c.browser && c.browser.assert.trim() === '') problems.push(`${c.id}: browser check without an assertion`);
    if (c.title.trim() === '') problems.push(`${c.id}: no title`);
  }
  return problems;
}
