// How one artifact's bytes are obtained (PRODUCT.md §2.7; FORMATS.md §9.2, §9.6): the stored
// verified bytes when the declared digest is known, a remembered digest failure while it is
// fresh, a conditional download when there is something to revalidate, otherwise a download.
// 304 and transient failures fall back to the last stored bytes.
import { fetchBounded } from '../net/fetch-bounded';
import type { FetchResult } from '../net/fetch-result';
import { positiveTtlMs } from '../net/cache-policy';
import type { MergedSkill } from '../parse/merge';
import type { DigestFailure, ProbeCacheEntry, StoredSkill } from '../store/records';
import { freshEntry, type ProbeIO } from './discover';
import { budgetMessage, type DownloadBudget } from './download-budget';
import type { Failure } from './status';

export interface ObtainContext extends ProbeIO {
  origin: string;
  /** The probe's download budget (download-budget.ts); absent: only each artifact's own cap applies. */
  budget?: DownloadBudget;
}

export type Obtained =
  /** Downloaded now; `entry` is the cache entry written for it (a digest failure is added to it). */
  | { kind: 'bytes'; bytes: Uint8Array; contentType: string | null; finalUrl: string; entry: ProbeCacheEntry }
  /** The bytes failed these declared digests before and are not downloaded again (see rememberedFailure). */
  | { kind: 'known-mismatch'; failure: DigestFailure; why: 'fresh' | 'not-modified'; retryAfter: number; finalUrl: string | null }
  | { kind: 'stored'; stored: StoredSkill; why: 'digest-known' | 'not-modified' | 'fresh' | 'stale' | 'budget'; finalUrl: string | null }
  | { kind: 'failed'; failure: Failure<'fetch-failed' | 'too-large' | 'invalid'> };

const ABSENT_CODES: Record<string, string> = {
  'not-found': 'fetch-not-found',
  forbidden: 'fetch-forbidden',
  'client-error': 'fetch-client-error',
  html: 'fetch-html',
  'cross-origin-redirect': 'fetch-redirect',
  'too-many-redirects': 'fetch-redirect',
  'redirect-blocked': 'fetch-redirect',
};

function failureOf(r: Exclude<FetchResult, { kind: 'ok' } | { kind: 'not-modified' }>): Failure<'fetch-failed' | 'too-large' | 'invalid'> {
  switch (r.kind) {
    case 'absent':
      return { status: 'fetch-failed', code: ABSENT_CODES[r.reason] ?? 'fetch-client-error', message: `The artifact is not available (${r.reason}${r.status !== null ? `, HTTP ${r.status}` : ''}).` };
    case 'transient':
      return {
        status: 'fetch-failed',
        code: 'fetch-transient',
        message: `The artifact could not be fetched now (${r.reason}${r.status !== null ? `, HTTP ${r.status}` : ''}) and no verified copy is stored.`,
      };
    case 'too-large':
      return { status: 'too-large', code: 'fetch-too-large', message: `The artifact is over its ${r.limit}-byte cap.` };
    case 'blocked':
      return { status: 'invalid', code: 'url-blocked', message: `The artifact URL is not allowed (${r.reason}).` };
  }
}

/**
 * Can the stored copy stand for the artifact? An archive record stored by an older version has no
 * file-set digest (its files were never digested, FORMATS.md §6.6): it is downloaded again instead.
 */
function reusable(stored: StoredSkill, type: MergedSkill['type']): boolean {
  return type !== 'archive' || stored.archive?.filesDigest !== undefined;
}

/** Does a stored copy satisfy every declared digest (raw or lf form; archives by their raw digest)? */
function storedMatches(stored: StoredSkill, type: MergedSkill['type'], hexes: string[]): boolean {
  if (hexes.length === 0 || !reusable(stored, type)) return false;
  return hexes.every((h) => (type === 'archive' ? stored.archive?.sha256 === h : stored.digestRaw === h || stored.digestLf === h));
}

async function findStored(ctx: ObtainContext, url: string, type: MergedSkill['type'], hexes: string[]): Promise<StoredSkill | null> {
  if (type === 'skill-md') {
    for (const h of hexes) {
      const hit = ctx.view.getSkill(url, h);
      if (hit && storedMatches(hit, type, hexes)) return hit;
    }
  }
  const latest = ctx.view.getLatestSkill(url);
  return latest && storedMatches(latest, type, hexes) ? latest : null;
}

/** The declared digests as a DigestFailure records them. */
export function declaredKey(hexes: readonly string[]): string {
  return [...hexes].sort().join(',');
}

/**
 * The remembered digest failure of `entry` when it applies to these declared digests. An
 * artifact whose bytes failed their digest is not downloaded again on every probe:
 * while its cache entry is fresh (Cache-Control clamped to [5 min, 24 h],
 * FORMATS.md §9.6) no request is made; after that it is revalidated with the validators it was
 * served with, and a 304 keeps the failure without a body. Without validators it is downloaded
 * again once the entry expires: the freshness lifetime is the back-off. Other declared digests
 * (the publisher fixed the listing) or a user's re-check make it count for nothing.
 */
function rememberedFailure(entry: ProbeCacheEntry | null, hexes: readonly string[]): DigestFailure | null {
  const failure = entry?.digestFailure;
  if (!failure || hexes.length === 0) return null;
  return failure.declared === declaredKey(hexes) ? failure : null;
}

export async function obtain(ctx: ObtainContext, merged: MergedSkill, url: string, needFiles: boolean): Promise<Obtained> {
  const hexes = [...new Set(merged.declared.map((d) => d.hex.toLowerCase()))];
  const canReuse = !ctx.force && !merged.disagree && !(needFiles && merged.type === 'archive');
  if (canReuse && hexes.length > 0) {
    const stored = await findStored(ctx, url, merged.type, hexes);
    if (stored) return { kind: 'stored', stored, why: 'digest-known', finalUrl: (await ctx.view.getCache(url))?.finalUrl ?? null };
  }
  const latest = ctx.view.getLatestSkill(url);
  const usable = latest && reusable(latest, merged.type) && !(needFiles && merged.type === 'archive') && (hexes.length === 0 || storedMatches(latest, merged.type, hexes)) ? latest : null;
  const entry = await ctx.view.getCache(url);
  const lastFinal = entry?.finalUrl ?? null;
  const now = ctx.clock.now();
  if (canReuse && usable && hexes.length === 0 && entry && entry.expiresAt > now) {
    return { kind: 'stored', stored: usable, why: 'fresh', finalUrl: lastFinal };
  }
  const failed = merged.disagree || usable ? null : rememberedFailure(entry, hexes);
  if (failed && entry && !ctx.force && entry.expiresAt > now) {
    return { kind: 'known-mismatch', failure: failed, why: 'fresh', retryAfter: entry.expiresAt, finalUrl: lastFinal };
  }
  // The probe's download budget is used up: no request; the stored verified bytes stand in, if any.
  if (ctx.budget?.exhausted()) return overBudget(ctx.budget, usable, lastFinal);
  const validated = usable ?? failed;
  const conditional = validated && entry && (entry.etag !== null || entry.lastModified !== null) ? { etag: entry.etag, lastModified: entry.lastModified } : null;
  const r = await fetchBounded(ctx.fetch, url, { kind: merged.type, origin: ctx.origin, clock: ctx.clock, conditional, guard: ctx.guard, meter: ctx.budget });
  if (r.kind === 'too-large' && r.budget && ctx.budget) return overBudget(ctx.budget, usable, r.finalUrl ?? lastFinal);
  if (r.kind === 'ok') {
    const written = freshEntry(r, { url, origin: ctx.origin, kind: merged.type, now }, null);
    ctx.view.putCache(written);
    return { kind: 'bytes', bytes: r.bytes, contentType: r.contentType, finalUrl: r.finalUrl, entry: written };
  }
  if (r.kind === 'not-modified') {
    // A 304 answers the validators of `entry`, sent only for a stored copy or a remembered failure.
    const expiresAt = now + positiveTtlMs(r.cacheControl);
    if (entry) ctx.view.putCache({ ...entry, storedAt: now, expiresAt, failures: 0 });
    if (usable) return { kind: 'stored', stored: usable, why: 'not-modified', finalUrl: r.finalUrl };
    if (failed) return { kind: 'known-mismatch', failure: failed, why: 'not-modified', retryAfter: expiresAt, finalUrl: r.finalUrl };
    return { kind: 'failed', failure: { status: 'fetch-failed', code: 'fetch-client-error', message: 'The server answered 304 but no verified copy is stored.' } };
  }
  if (r.kind === 'transient' && usable) return { kind: 'stored', stored: usable, why: 'stale', finalUrl: lastFinal };
  return { kind: 'failed', failure: failureOf(r) };
}

/** An artifact the probe's download budget has no room for: its stored verified bytes, else `probe-budget`. Nothing is written. */
function overBudget(budget: DownloadBudget, usable: StoredSkill | null, finalUrl: string | null): Obtained {
  budget.refuse();
  if (usable) return { kind: 'stored', stored: usable, why: 'budget', finalUrl };
  return { kind: 'failed', failure: { status: 'fetch-failed', code: 'probe-budget', message: budgetMessage(budget) } };
}
