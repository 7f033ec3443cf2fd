// The discovery documents of one origin through the probe cache (PRODUCT.md §2.2–2.4,
// FORMATS.md §9.2, §9.6): a fresh entry answers without a request, an expired positive entry
// is revalidated, a transient failure keeps the last good bytes and backs off, and the legacy
// index is asked only when the current index is absent. Returns bytes, never parsed objects.
// Which documents, where and how: DOCUMENTS (lib/types/documents.ts).
import { httpOrigin } from '../origin';
import type { RequestGuard } from '../net/request-guard';
import { backoffMs, positiveTtlMs } from '../net/cache-policy';
import { fetchBounded } from '../net/fetch-bounded';
import { LIMITS } from '../net/limits';
import { diag } from '../report/codes';
import { CANDIDATE_SOURCES, DOCUMENTS } from '../types';
import type { CandidateSource, Clock, Diagnostic, DocumentKind, FetchLike, Settings, SourceReport } from '../types';
import type { FetchResult } from '../net/fetch-result';
import type { ProbeCacheEntry } from '../store/records';
import type { ProbeView } from './view';
import type { StorageNotes } from './storage-guard';

import type { Sha256 } from '../verify/sha256';

/** The I/O one probe's requests run on: the fetch, the guard, its view of the store, the clock. */
export interface ProbeIO {
  fetch: FetchLike;
  guard?: RequestGuard;
  /** The probe's records: its snapshot of the store and what it learned (lib/probe/view.ts). */
  view: ProbeView;
  clock: Clock;
  /** Ignore fresh cache entries and backoff (a user-requested re-probe); validators are still sent. */
  force: boolean;
  /** Where failed storage writes are noted (a `storage-error` diagnostic); absent: they throw. */
  storage?: StorageNotes;
  /** The artifacts' SHA-256 (EngineDeps.sha256); absent: lib/verify/sha256.ts. */
  sha256?: Sha256;
}

export type DocState =
  /** Bytes are usable: fetched now, revalidated (304), fresh in the cache, or kept through a transient failure. */
  | 'present'
  /** 404/410/401/403, HTML, cross-origin redirect, too many redirects (now or cached negatively). */
  | 'absent'
  /** Transient failure (or backoff) and no good copy stored. */
  | 'unavailable'
  | 'too-large'
  | 'blocked';

export interface DocOutcome {
  kind: DocumentKind;
  url: string;
  state: DocState;
  bytes: Uint8Array | null;
  /** Base for relative URLs: the final URL after redirects (or the request URL). */
  finalUrl: string;
  contentType: string | null;
  /** The bytes are those of the last probe (cache hit or 304). */
  unchanged: boolean;
  source: SourceReport;
  diagnostics: Diagnostic[];
}

/**
 * Every listing of DOCUMENTS by kind: null when it was not asked for (one asked only in place of
 * another, like the legacy index: the other was not absent, or its setting is off).
 */
export type Discovery = Record<CandidateSource, DocOutcome | null>;

function source(kind: DocumentKind, url: string, patch: Partial<SourceReport>): SourceReport {
  return { kind, url, finalUrl: null, httpStatus: null, outcome: 'skipped', reason: null, contentType: null, bytes: null, ms: null, fromCache: false, ...patch };
}

/** A document's outcome from a request made now: no bytes and the request URL unless `patch` says otherwise. */
function fetched(kind: DocumentKind, url: string, state: DocState, source: SourceReport, patch: Partial<DocOutcome> = {}): DocOutcome {
  return { kind, url, state, bytes: null, finalUrl: url, contentType: null, unchanged: false, source, diagnostics: [], ...patch };
}

/** The cache entry of a response just received: a listing keeps its bytes, an artifact (stored as a skill) none. */
export function freshEntry(r: Extract<FetchResult, { kind: 'ok' }>, at: { url: string; origin: string; kind: DocumentKind; now: number }, bytes: Uint8Array | null): ProbeCacheEntry {
  const { url, origin, kind, now } = at;
  return {
    url,
    origin,
    kind,
    positive: true,
    status: r.status,
    finalUrl: r.finalUrl,
    contentType: r.contentType,
    etag: r.etag,
    lastModified: r.lastModified,
    bytes,
    storedAt: now,
    expiresAt: now + positiveTtlMs(r.cacheControl),
    failures: 0,
  };
}

/** The state a cache entry stands for. */
function cachedState(entry: ProbeCacheEntry): DocState {
  if (entry.positive && entry.bytes !== null) return 'present';
  return entry.reason === 'too-large' ? 'too-large' : entry.reason === 'transient' ? 'unavailable' : 'absent';
}

function fromEntry(entry: ProbeCacheEntry, patch: Partial<DocOutcome> & { source: SourceReport }): DocOutcome {
  const positive = entry.positive && entry.bytes !== null;
  return {
    kind: entry.kind,
    url: entry.url,
    state: cachedState(entry),
    bytes: positive ? entry.bytes : null,
    finalUrl: entry.finalUrl ?? entry.url,
    contentType: entry.contentType,
    unchanged: true,
    diagnostics: [],
    ...patch,
  };
}

const isFresh = (entry: ProbeCacheEntry, now: number): boolean => entry.expiresAt > now && entry.reason !== 'transient';
const inBackoff = (entry: ProbeCacheEntry, now: number): entry is ProbeCacheEntry & { retryAt: number } => entry.retryAt !== undefined && entry.retryAt > now;

/** What fetchDocument answers for `kind` without a request (a fresh entry, a backoff), or 'request' when it asks the network. */
export async function cacheAnswer(kind: DocumentKind, origin: string, ctx: ProbeIO): Promise<DocState | 'request'> {
  if (ctx.force) return 'request';
  const entry = await ctx.view.getCache(origin + DOCUMENTS[kind].path);
  const now = ctx.clock.now();
  if (!entry || !(isFresh(entry, now) || inBackoff(entry, now))) return 'request';
  return cachedState(entry);
}

/** One discovery document (llms.txt, index, legacy index, signing-key.pub, attestations). */
export async function fetchDocument(kind: DocumentKind, origin: string, ctx: ProbeIO): Promise<DocOutcome> {
  const url = origin + DOCUMENTS[kind].path;
  const now = ctx.clock.now();
  const entry = await ctx.view.getCache(url);

  if (entry && !ctx.force) {
    if (isFresh(entry, now)) {
      return fromEntry(entry, {
        source: source(kind, url, {
          finalUrl: entry.finalUrl,
          httpStatus: entry.status,
          outcome: 'cached',
          reason: entry.positive ? 'fresh' : (entry.reason ?? 'negative'),
          contentType: entry.contentType,
          bytes: entry.bytes ? entry.bytes.byteLength : null,
          fromCache: true,
        }),
      });
    }
    if (inBackoff(entry, now)) {
      const out = fromEntry(entry, {
        source: source(kind, url, { finalUrl: entry.finalUrl, outcome: 'cached', reason: 'backoff', contentType: entry.contentType, fromCache: true }),
      });
      out.diagnostics.push(diag('document-backoff', `Not requested before ${new Date(entry.retryAt).toISOString()} after ${entry.failures ?? 1} transient failure(s).`, { url }));
      return out;
    }
  }

  const conditional = entry && entry.positive && entry.bytes !== null && (entry.etag !== null || entry.lastModified !== null) ? { etag: entry.etag, lastModified: entry.lastModified } : null;
  // A 304 answers only these validators, so it always has the entry's bytes to reuse.
  const r = await fetchBounded(ctx.fetch, url, { kind, origin, clock: ctx.clock, conditional, guard: ctx.guard });
  return settle(kind, origin, url, r, entry, ctx);
}

async function settle(kind: DocumentKind, origin: string, url: string, r: FetchResult, entry: ProbeCacheEntry | null, ctx: ProbeIO): Promise<DocOutcome> {
  const now = ctx.clock.now();
  const base = { url, origin, kind, storedAt: now } as const;
  const negative = { ...base, positive: false, etag: null, lastModified: null, bytes: null } as const;
  switch (r.kind) {
    case 'ok': {
      ctx.view.putCache(freshEntry(r, { url, origin, kind, now }, r.bytes));
      const src = source(kind, url, { finalUrl: r.finalUrl, httpStatus: r.status, outcome: 'ok', contentType: r.contentType, bytes: r.bytes.byteLength, ms: r.ms });
      return fetched(kind, url, 'present', src, { bytes: r.bytes, finalUrl: r.finalUrl, contentType: r.contentType });
    }
    case 'not-modified': {
      const prev = entry as ProbeCacheEntry;
      ctx.view.putCache({
        ...prev,
        etag: r.etag ?? prev.etag,
        lastModified: r.lastModified ?? prev.lastModified,
        storedAt: now,
        expiresAt: now + positiveTtlMs(r.cacheControl),
        failures: 0,
        retryAt: undefined,
      });
      return fromEntry(prev, {
        source: source(kind, url, {
          finalUrl: prev.finalUrl,
          httpStatus: 304,
          outcome: 'not-modified',
          reason: 'revalidated',
          contentType: prev.contentType,
          bytes: prev.bytes ? prev.bytes.byteLength : null,
          ms: r.ms,
        }),
      });
    }
    case 'absent':
    case 'too-large': {
      const reason = r.kind === 'absent' ? r.reason : 'too-large';
      ctx.view.putCache({ ...negative, status: r.status, finalUrl: r.finalUrl, contentType: r.contentType, expiresAt: now + LIMITS.negativeTtlMs, failures: 0, reason });
      const src = source(kind, url, { finalUrl: r.finalUrl, httpStatus: r.status, outcome: r.kind, reason, contentType: r.contentType, ms: r.ms });
      const out = fetched(kind, url, r.kind, src, { finalUrl: r.finalUrl ?? url, contentType: r.contentType });
      if (r.kind === 'too-large') out.diagnostics.push(diag('document-too-large', `Over the ${r.limit}-byte cap; the document was dropped.`, { url }));
      return out;
    }
    case 'transient': {
      const failures = (entry?.failures ?? 0) + 1;
      const wait = Math.max(backoffMs(failures), r.retryAfterMs ?? 0);
      const kept: ProbeCacheEntry = entry
        ? { ...entry, failures, retryAt: now + wait }
        : { ...negative, status: r.status, finalUrl: null, contentType: null, expiresAt: now, failures, retryAt: now + wait, reason: 'transient' };
      ctx.view.putCache(kept);
      const src = source(kind, url, { httpStatus: r.status, outcome: 'transient', reason: r.reason, ms: r.ms });
      if (entry && entry.reason !== 'transient') {
        const out = fromEntry(entry, { source: src });
        if (out.state === 'present') out.diagnostics.push(diag('document-stale', `Transient failure (${r.reason}); the last good copy is used.`, { url }));
        return out;
      }
      return fetched(kind, url, 'unavailable', src, { diagnostics: [diag('document-unavailable', `Transient failure (${r.reason}); retried later.`, { url })] });
    }
    case 'blocked':
      return fetched(kind, url, 'blocked', source(kind, url, { outcome: 'blocked', reason: r.reason, ms: r.ms }), {
        diagnostics: [diag('document-blocked', `Not requested: ${r.reason}.`, { url })],
      });
  }
}

/**
 * The listings in parallel, in the order of DOCUMENTS (llms.txt, the index); each one asked for
 * only in place of another (the legacy index) as soon as that one answered absent, when its
 * setting is on.
 */
export async function discoverDocuments(origin: string, ctx: ProbeIO, settings: Settings): Promise<Discovery> {
  const disc = Object.fromEntries(CANDIDATE_SOURCES.map((k) => [k, null])) as Discovery;
  // The permits of every listing that may be asked now, in one rule update: a listing asked only in
  // place of another, too, when the other is asked now (its answer may be absent) or is known absent.
  const answers = new Map(await Promise.all(CANDIDATE_SOURCES.map(async (k) => [k, await cacheAnswer(k, origin, ctx)] as const)));
  const asked = CANDIDATE_SOURCES.filter((k) => {
    const instead = DOCUMENTS[k].insteadOf;
    if (answers.get(k) !== 'request') return false;
    if (instead === null) return true;
    const other = answers.get(instead.kind);
    return settings[instead.setting] && (other === 'request' || other === 'absent');
  }).map((k) => origin + DOCUMENTS[k].path);
  const release = await reserveAhead(ctx, asked, origin);
  try {
    await Promise.all(CANDIDATE_SOURCES.filter((k) => DOCUMENTS[k].insteadOf === null).map((k) => discoverFrom(k, origin, ctx, settings, disc)));
  } finally {
    release();
  }
  return disc;
}

/** One listing, then each listing asked in its place when it answered absent and that one's setting is on. */
async function discoverFrom(kind: CandidateSource, origin: string, ctx: ProbeIO, settings: Settings, disc: Discovery): Promise<void> {
  const doc = await fetchDocument(kind, origin, ctx);
  disc[kind] = doc;
  for (const k of CANDIDATE_SOURCES) {
    const instead = DOCUMENTS[k].insteadOf;
    if (instead?.kind === kind && settings[instead.setting] && doc.state === 'absent') disc[k] = await fetchDocument(k, origin, ctx);
  }
}

/**
 * The request guard's permits for the URLs a phase is about to request (RequestGuard.reserve): one
 * rule update instead of one per request. Only URLs on the origin itself; the rest, and anything
 * not reserved, take their own permit with their request. Returns the release.
 */
export async function reserveAhead(ctx: ProbeIO, urls: ReadonlyArray<string | null>, origin: string): Promise<() => void> {
  const reserve = ctx.guard?.reserve;
  if (!reserve) return () => undefined;
  const own = urls.filter((u): u is string => u !== null && httpOrigin(u) === origin);
  if (own.length === 0) return () => undefined;
  return reserve.call(ctx.guard, own);
}
