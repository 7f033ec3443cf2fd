// The real/ expectations of the corpus README ("Expected outcomes" → "real/") and of
// FORMATS.md §11, written as data. The generic MATCH/MISMATCH rule is derived per file from
// MANIFEST.tsv in real-sites.test.ts; the rows here are the named cases and exceptions.
import type { SkillStatus } from '../../../lib/types';

/** Sites whose entries carry an invented `type` (README: unsupported before any fetch, whatever MANIFEST says of the digest). */
export const INVENTED_TYPE_SITES: Record<string, string[]> = {
  'Autari-ai__partners__public': ['action', 'information'],
  'Iamdreaming__yinshiji-site__public': ['content'],
  'APTlantis__aptlantis.studio__public': ['documentation'],
  'Montelibero__tfm-fund': ['markdown'],
  'DJNgoma__daliso-website': ['reference'],
  'Mathew-Harvey__WebIntel-landing': ['skill'],
  whiteknightonhorse__APIbase__static: ['skill'],
};

export interface SkillExpectation {
  site: string;
  /** URL path (pathname) of the skill, or a predicate description when `count` is used. */
  path?: string;
  /** Every skill of the site with this status code prefix (with `count`). */
  codePrefix?: string;
  count?: number;
  status: SkillStatus;
  why: string;
}

export const NAMED: SkillExpectation[] = [
  // MISMATCH → digest-mismatch (stale or built-output digests).
  { site: 'Hoshimikan6490__hoshimikan6490-home-page__public', path: '/.well-known/agent-skills/site-discovery/SKILL.md', status: 'digest-mismatch', why: 'stale digest' },
  { site: 'MohGanji__shelf', path: '/.well-known/agent-skills/blog-posts.md', status: 'digest-mismatch', why: 'stale digest' },
  { site: 'Project-HAMi__website__static', path: '/.well-known/agent-skills/hami-docs/SKILL.md', status: 'digest-mismatch', why: 'digest over built output' },
  { site: 'MohGanji__shelf', path: '/.well-known/agent-skills/site-overview.md', status: 'verified', why: 'MATCH' },
  // The unexpanded __PUBLIC_ORIGIN__ placeholder: invalid, no request.
  { site: 'faberlang__faberlang.dev__assets', codePrefix: 'url-placeholder', count: 9, status: 'invalid', why: '`url` starts with __PUBLIC_ORIGIN__' },
  // v0.1 entries that break the path rules.
  { site: 'corezoid__corezoid-ai-plugin__public', codePrefix: 'v01-', count: 23, status: 'invalid', why: 'absolute URLs in v0.1 files[]' },
  { site: 'gmx-io__gmx-ai', codePrefix: 'v01-', count: 2, status: 'invalid', why: 'index-relative paths in v0.1 files[]' },
  { site: 'dstackai__dstackai.github.io', codePrefix: 'v01-', count: 1, status: 'invalid', why: 'lowercase skill.md in v0.1 files[]' },
  // The 23 `## Skills` links of corezoid's llms.txt: cross-host raw.githubusercontent.com, no digest.
  { site: 'corezoid__corezoid-ai-plugin__public', codePrefix: 'unverified-no-digest', count: 23, status: 'unverified', why: '## Skills links without metadata' },
  // The one local archive and its sibling.
  { site: 'rindag-devs__hull__docs', path: '/.well-known/agent-skills/author-hull-problems.tar.gz', status: 'verified', why: 'archive digest eec9f10b… MATCH' },
  { site: 'rindag-devs__hull__docs', path: '/.well-known/agent-skills/documentation/SKILL.md', status: 'verified', why: 'MATCH' },
  // Files only under _repo/ (built at deploy time): fetch-failed when served as-is.
  { site: 'boazy__skills', codePrefix: 'fetch-', count: 4, status: 'fetch-failed', why: 'indexed files only under _repo/' },
  { site: 'mollie__ai', codePrefix: 'fetch-', count: 1, status: 'fetch-failed', why: 'indexed file only under _repo/' },
  { site: 'veritrans__midtrans-agent-skills', codePrefix: 'fetch-', count: 1, status: 'fetch-failed', why: 'indexed file only under _repo/' },
  // FORMATS.md §11 rows.
  { site: 'CNOCTAVE__chinese-novelist-skill-cnoctave', codePrefix: 'fetch-not-found', count: 1, status: 'fetch-failed', why: './relative URL resolved against the index directory; target is a 404' },
  {
    site: 'max-sixty__worktrunk__docs_public',
    path: '/.well-known/agent-skills/worktrunk/SKILL.md',
    status: 'verified',
    why: './worktrunk/SKILL.md resolved against the index; git symlink stored resolved',
  },
  { site: 'mikeckennedy__listmonk__docs', path: '/.well-known/agent-skills/listmonk/SKILL.md', status: 'unverified', why: 'v0.1 shape at the current path' },
];

/** Whole-site facts (FORMATS.md §11). */
export interface SiteExpectation {
  site: string;
  skills?: number;
  /** Skills listed by llms.txt. */
  llmsSkills?: number;
  /** Paths that must never be requested. */
  neverRequested?: string[];
  /** A diagnostic code the report must carry. */
  diagnostic?: string;
  why: string;
}

export const SITE_FACTS: SiteExpectation[] = [
  { site: 'Get-Coral__getcoral.dev__public', skills: 0, why: '`skills: []` is a valid index with no skills' },
  { site: '0PandaDEV__awesome-windows', skills: 0, why: 'no headings at all, only a prompt-injection paragraph' },
  { site: 'Elomami1976__typogrammar__public', llmsSkills: 0, why: '`#### Writing Skills` is not a section' },
  { site: 'CNOCTAVE__chinese-novelist-skill-cnoctave', neverRequested: ['/.well-known/skills/index.json'], why: 'the current index shadows the legacy one (which has a BOM)' },
  { site: 'proompteng__bilig__docs', neverRequested: ['/.well-known/skills/index.json'], why: 'both paths published; the current one wins' },
  { site: 'formatjs__formatjs__docs_public', diagnostic: 'index-unknown-schema', why: 'non-canonical $schema is a warning' },
  { site: 'corezoid__corezoid-ai-plugin__public', skills: 46, why: '23 llms.txt links + 23 v0.1 entries, never merged by name' },
];
