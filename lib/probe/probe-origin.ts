// One origin in, one OriginReport out: probe → parse → merge → verify → trust → report
// (ARCHITECTURE.md). Never throws: an unexpected error becomes state `error` with the last
// stored report's content kept, and nothing stored before is removed.
import { httpOrigin } from '../origin';
import { LIMITS } from '../net/limits';
import type { RequestGuard } from '../net/request-guard';
import { mergeCandidates } from '../parse/merge';
import { buildReport, errorReport, skillReport } from '../report/build-report';
import { diag } from '../report/codes';
import { CANDIDATE_SOURCES, DOCUMENTS } from '../types';
import type { Clock, Diagnostic, FetchLike, OriginReport, Settings, SourceReport } from '../types';
import type { TrustStore } from '../store/store-api';
import type { ManagedKey } from '../store/policy';
import { artifactUrls, processSkills } from './artifacts';
import { attestSkills } from './attest';
import { cacheAnswer, discoverDocuments, reserveAhead, type ProbeIO } from './discover';
import { budgetSummary, downloadBudget } from './download-budget';
import { entriesSigned, resolveKeys } from './keys';
import { LISTING_PARSERS, type Listing } from './listings';
import { COMMIT_OPS, commitProbe } from './commit';
import { probeView, type ProbeView, type ProbeWrites, type ViewOptions } from './view';
import type { Sha256 } from '../verify/sha256';
import { storageNotes, type StorageNotes } from './storage-guard';

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
  /**
   * SHA-256 of the downloaded artifacts (declared digests, archive files): node's native hash under
   * node; by default lib/verify/sha256.ts (WebCrypto in the browser from a few hundred bytes, JS below).
   */
  sha256?: Sha256;
}

export interface ProbeOptions {
  /** Ignore fresh cache entries, backoff and stored digests: fetch everything again (with validators). */
  force?: boolean;
  onPhase?: (phase: string) => void;
  /**
   * The verdict as soon as it is known, before it is written (the badge need not wait for the
   * store). Called again with a corrected report when the write changes it: a first pin that could
   * not be written (nothing is then verified against it), or a pin that changed meanwhile.
   */
  onVerdict?: (report: OriginReport) => void;
}

/** The phases of one probe, in order; `commit` is the one readwrite transaction (and the rare second). */
export const PHASES = ['discover', 'parse', 'keys', 'artifacts', 'attestations', 'report', 'commit'] as const;

/** `first`'s value once `others` have settled too, so nothing of the probe runs on after a failure. */
async function settledAll<T>(first: Promise<T>, ...others: Promise<unknown>[]): Promise<T> {
  const [r] = await Promise.allSettled([first, ...others]);
  if (r.status === 'rejected') throw r.reason;
  return r.value as T;
}

async function run(origin: string, deps: EngineDeps, opts: ProbeOptions, startedAt: number, view: ProbeView, storage: StorageNotes): Promise<OriginReport> {
  const phase = (p: (typeof PHASES)[number]): void => opts.onPhase?.(p);
  const ctx: ProbeIO = { fetch: deps.fetch, guard: deps.guard, view, clock: deps.clock, force: opts.force === true, storage, ...(deps.sha256 ? { sha256: deps.sha256 } : {}) };
  const diagnostics: Diagnostic[] = [];
  const sources: SourceReport[] = [];

  phase('discover');
  const disc = await discoverDocuments(origin, ctx, deps.settings);
  const asked = CANDIDATE_SOURCES.flatMap((kind) => disc[kind] ?? []);
  sources.push(...asked.map((d) => d.source));
  diagnostics.push(...asked.flatMap((d) => d.diagnostics));

  phase('parse');
  const listings: Listing[] = [];
  for (const kind of CANDIDATE_SOURCES) {
    const d = disc[kind];
    if (d?.state === 'present' && d.bytes) listings.push(LISTING_PARSERS[kind](d, d.bytes, origin, diagnostics));
  }
  const index = listings.find((l) => l.index !== null)?.index ?? null;
  const publishes = listings.some((l) => l.publishes);
  // A listing asked for only in place of another does not count: the one it stands in for decides.
  const unavailable = CANDIDATE_SOURCES.some((k) => DOCUMENTS[k].insteadOf === null && disc[k]?.state === 'unavailable');
  if (!publishes && !unavailable) {
    diagnostics.push(diag('no-discovery-documents', 'The origin publishes neither a `## Skills` section in llms.txt nor a skill index.'));
  }

  // signing-key.pub, the artifacts and attestations.json are asked together: the downloads need
  // no key (each skill waits for it before its signature check), and attestations bind listings.
  const merged = mergeCandidates(listings.flatMap((l) => l.candidates));

  phase('keys');
  // A listing downloaded now names artifacts this probe downloads: their permits and the key's in
  // one rule update before any of them is asked (a listing unchanged since the last probe names
  // stored artifacts, which are mostly not asked again: those take their own permits).
  const downloaded = listings.length > 0 && CANDIDATE_SOURCES.some((k) => disc[k]?.state === 'present' && disc[k]?.unchanged === false);
  const keyAsked = entriesSigned(index) && (await cacheAnswer('signing-key', origin, ctx)) === 'request';
  const releaseAhead = await reserveAhead(ctx, [keyAsked ? origin + DOCUMENTS['signing-key'].path : null, ...(downloaded ? artifactUrls(merged) : [])], origin);
  const keysAsked = resolveKeys(origin, index, disc.index?.state === 'unavailable', ctx, deps.managedKeys?.find((k) => k.origin === origin) ?? null);

  phase('artifacts');
  const budget = downloadBudget(deps.downloadBudget ?? LIMITS.probeDownload);
  const actx = { ...ctx, origin, settings: deps.settings, budget };
  const today = deps.today ? deps.today() : new Date(deps.clock.now());
  const attested = attestSkills(origin, merged, publishes, deps.settings, today, ctx);
  const outcomes = await settledAll(processSkills(actx, keysAsked, merged), keysAsked, attested).finally(releaseAhead);

  phase('attestations');
  const [keys, att] = await Promise.all([keysAsked, attested]);
  sources.push(...keys.sources);
  diagnostics.push(...keys.diagnostics);
  if (budget.refused() > 0) diagnostics.push(diag('probe-budget-used', budgetSummary(budget)));
  sources.push(...att.sources);
  diagnostics.push(...att.diagnostics);

  phase('report');
  diagnostics.push(...storage.diagnostics());
  const pinned = keys.report.pinned?.fingerprint ?? null;
  const skills = outcomes.map((o) => skillReport(origin, o, att.verdicts.get(o.merged.key) ?? null, pinned));
  return buildReport({ origin, startedAt, finishedAt: deps.clock.now(), publishes, sources, key: keys.report, skills, diagnostics });
}

/** A probe's outcome: the report and what it learned, not written yet (null: the store could not be read). */
export interface ProbeOutcome {
  report: OriginReport;
  writes: ProbeWrites | null;
  /** The probe ended in an unexpected error (the report's state is `error`). */
  failed: boolean;
}

/**
 * One probe of `origin` as a function of what the store holds for it: the snapshot is read once,
 * the report and the writes are returned; nothing is written. An unexpected error becomes state
 * `error`, with what was learned before it kept in the writes.
 */
export async function probe(origin: string, deps: EngineDeps, opts: ProbeOptions, startedAt: number, storage: StorageNotes, viewOpts: ViewOptions = {}): Promise<ProbeOutcome> {
  let view: ProbeView | null = null;
  try {
    view = probeView(origin, await deps.store.getOriginState(origin), deps.store, viewOpts);
    return { report: await run(origin, deps, opts, startedAt, view, storage), writes: view.writes(), failed: false };
  } catch (e) {
    let previous: OriginReport | null = null;
    try {
      previous = await deps.store.getReport(origin);
    } catch {
      previous = null;
    }
    return { report: errorReport(origin, previous, startedAt, deps.clock.now(), e), writes: view?.writes() ?? null, failed: true };
  }
}

/** Runs again at most this often after a commit that changed the verdict. */
const MAX_RERUNS = 2;

export async function probeOrigin(origin: string, deps: EngineDeps, opts: ProbeOptions = {}): Promise<OriginReport> {
  const startedAt = deps.clock.now();
  const normalized = httpOrigin(origin);
  if (normalized === null) {
    // Not an http(s) origin: nothing is requested and nothing is stored.
    return errorReport(origin, null, startedAt, deps.clock.now(), new Error(`"${origin}" is not an http(s) origin`));
  }
  // Failed writes during a run (a pin that cannot be written) and failed commits.
  const storage = storageNotes();
  const saving = storageNotes();
  let out = await probe(normalized, deps, opts, startedAt, storage);
  for (let reruns = 0; ; reruns++) {
    opts.onPhase?.('commit');
    opts.onVerdict?.(out.report);
    if (!out.writes) {
      // The store could not even be read: the error report is offered to it alone.
      await deps.store.putReport(out.report).catch((e: unknown) => saving.note(COMMIT_OPS.report, e));
      break;
    }
    const done = await commitProbe(deps.store, normalized, out.writes, out.report, saving, !out.failed);
    if (out.failed || done === 'written' || done === 'refused' || reruns >= MAX_RERUNS) break;
    // Again from what was just fetched (a forced probe has fetched everything already): a pin
    // written meanwhile is read afresh; an unwritable first pin keeps what was learned.
    const again = { ...opts, force: false };
    out = await probe(normalized, deps, again, startedAt, storage, done === 'pin-changed' ? {} : { pinUnwritable: done.firstPin, seed: out.writes });
  }
  out.report.diagnostics.push(...saving.diagnostics());
  return out.report;
}
