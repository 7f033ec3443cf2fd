// One origin in, one OriginReport out: probe → parse → merge → verify → trust → report
// (ARCHITECTURE.md). Never throws: an unexpected error becomes state `error` with the last
// stored report's content kept, and nothing stored before is removed.
import { LIMITS } from '../net/limits';
import type { RequestGuard } from '../net/request-guard';
import { parseIndex } from '../parse/index-json';
import { parseLlmsTxt } from '../parse/llms-txt';
import { mergeCandidates } from '../parse/merge';
import { buildReport, errorReport, skillReport } from '../report/build-report';
import { diag } from '../report/codes';
import type { Clock, Diagnostic, FetchLike, OriginReport, Settings, SourceReport } from '../types';
import type { ParsedIndex } from '../parse/index-json';
import type { ParsedLlmsTxt } from '../parse/llms-txt';
import type { SkillCandidate } from '../parse/candidate';
import type { TrustStore } from '../trust/store-api';
import type { ManagedKey } from '../trust/managed';
import { errorOutcome, processSkills } from './artifacts';
import { attestSkills } from './attest';
import { discoverDocuments, type DocOutcome, type FetchContext } from './discover';
import { budgetSummary, downloadBudget } from './download-budget';
import { resolveKeys } from './keys';
import { openSession, type ProbeSession } from './session';
import { errorText, guardCacheWrites, storageNotes, type StorageNotes } from './storage-guard';

export interface EngineDeps {
  fetch: FetchLike;
  /** In a browser: every redirect hop watched and checked (lib/net/request-guard.ts). */
  guard?: RequestGuard;
  store: TrustStore;
  clock: Clock;
  settings: Settings;
  /** Publisher keys the administrator pinned (docs/policies.md): they stand in for trust on first use. */
  managedKeys?: readonly ManagedKey[];
  /** The current UTC day for attestation windows; defaults to the clock. */
  today?: () => Date;
  /** Artifact bytes one probe may download, all artifacts together; default LIMITS.probeDownload. */
  downloadBudget?: number;
}

export interface ProbeOptions {
  /** Ignore fresh cache entries, backoff and stored digests: fetch everything again (with validators). */
  force?: boolean;
  onPhase?: (phase: string) => void;
}

export const PHASES = ['discover', 'parse', 'keys', 'artifacts', 'attestations', 'report'] as const;

function normalizeOrigin(origin: string): string | null {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

function parseIndexDoc(doc: DocOutcome, origin: string, source: 'index' | 'legacy-index', diagnostics: Diagnostic[]): ParsedIndex | null {
  if (doc.state !== 'present' || !doc.bytes) return null;
  const parsed = parseIndex(doc.bytes, doc.finalUrl, origin, source);
  if ('invalid' in parsed) {
    doc.source.outcome = 'invalid';
    doc.source.reason = parsed.code;
    diagnostics.push(diag('index-invalid', `${parsed.message} (${parsed.code})`, { url: doc.finalUrl }));
    return null;
  }
  diagnostics.push(...parsed.diagnostics);
  return parsed;
}

async function run(origin: string, deps: EngineDeps, opts: ProbeOptions, startedAt: number, session: ProbeSession, storage: StorageNotes): Promise<OriginReport> {
  const phase = (p: (typeof PHASES)[number]): void => opts.onPhase?.(p);
  const ctx: FetchContext = { fetch: deps.fetch, guard: deps.guard, store: session, clock: deps.clock, force: opts.force === true, storage };
  const diagnostics: Diagnostic[] = [];
  const sources: SourceReport[] = [];

  phase('discover');
  const disc = await discoverDocuments(origin, ctx, deps.settings);
  for (const d of [disc.llms, disc.index, disc.legacy]) {
    if (!d) continue;
    sources.push(d.source);
    diagnostics.push(...d.diagnostics);
  }

  phase('parse');
  let llms: ParsedLlmsTxt | null = null;
  if (disc.llms.state === 'present' && disc.llms.bytes) {
    llms = parseLlmsTxt(disc.llms.bytes, disc.llms.finalUrl, origin);
    diagnostics.push(...llms.diagnostics);
    if (!llms.hasSkillsSection) diagnostics.push(diag('no-skills-section', 'llms.txt has no `## Skills` section.', { url: disc.llms.finalUrl }));
  }
  let index = parseIndexDoc(disc.index, origin, 'index', diagnostics);
  if (!index && disc.legacy) {
    index = parseIndexDoc(disc.legacy, origin, 'legacy-index', diagnostics);
    if (index) diagnostics.push(diag('legacy-index-used', 'The current index is absent; the legacy index is used.', { url: disc.legacy.finalUrl }));
  }
  const indexDocPresent = disc.index.state === 'present' || disc.legacy?.state === 'present';
  const publishes = (llms?.hasSkillsSection ?? false) || indexDocPresent;
  if (!publishes && disc.llms.state !== 'unavailable' && disc.index.state !== 'unavailable') {
    diagnostics.push(diag('no-discovery-documents', 'The origin publishes neither a `## Skills` section in llms.txt nor a skill index.'));
  }

  phase('keys');
  const keys = await resolveKeys(origin, index, disc.index.state === 'unavailable', ctx, deps.managedKeys?.find((k) => k.origin === origin) ?? null);
  sources.push(...keys.sources);
  diagnostics.push(...keys.diagnostics);

  const candidates: SkillCandidate[] = [...(llms?.candidates ?? []), ...(index?.candidates ?? [])];
  const merged = mergeCandidates(candidates);

  phase('artifacts');
  const budget = downloadBudget(deps.downloadBudget ?? LIMITS.probeDownload);
  const actx = { ...ctx, origin, key: keys, settings: deps.settings, budget };
  const outcomes = await processSkills(actx, merged, (m, e) => errorOutcome(actx, m, e));
  if (budget.refused() > 0) diagnostics.push(diag('probe-budget-used', budgetSummary(budget)));

  phase('attestations');
  const today = deps.today ? deps.today() : new Date(deps.clock.now());
  const att = await attestSkills(origin, merged, publishes, deps.settings, today, ctx);
  sources.push(...att.sources);
  diagnostics.push(...att.diagnostics);

  phase('report');
  await session.flush();
  diagnostics.push(...storage.diagnostics());
  const pinned = keys.report.pinned?.fingerprint ?? null;
  const skills = outcomes.map((o) => skillReport(origin, o, att.verdicts.get(o.merged.key) ?? null, pinned));
  return buildReport({ origin, startedAt, finishedAt: deps.clock.now(), publishes, sources, key: keys.report, skills, diagnostics });
}

export async function probeOrigin(origin: string, deps: EngineDeps, opts: ProbeOptions = {}): Promise<OriginReport> {
  const startedAt = deps.clock.now();
  const normalized = normalizeOrigin(origin);
  if (normalized === null) {
    // Not an http(s) origin: nothing is requested and nothing is stored.
    return errorReport(origin, null, startedAt, deps.clock.now(), new Error(`"${origin}" is not an http(s) origin`));
  }
  let report: OriginReport;
  const storage = storageNotes();
  let session: ProbeSession | null = null;
  try {
    // Cache and byte writes are guarded (a failure is a storage-error diagnostic) and buffered
    // by the session until the end of the probe; the origin's records are read once here.
    session = await openSession(guardCacheWrites(deps.store, storage), normalized);
    report = await run(normalized, deps, opts, startedAt, session, storage);
  } catch (e) {
    // What was fetched and verified before the failure is still kept (guarded writes never throw).
    await session?.flush();
    let previous: OriginReport | null = null;
    try {
      previous = await deps.store.getReport(normalized);
    } catch {
      previous = null;
    }
    report = errorReport(normalized, previous, startedAt, deps.clock.now(), e);
  }
  try {
    await deps.store.putReport(report);
  } catch (e) {
    report.diagnostics.push(diag('storage-error', `Saving the report failed: ${errorText(e)}`));
  }
  return report;
}
