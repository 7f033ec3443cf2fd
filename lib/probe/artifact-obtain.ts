// How one artifact's bytes are obtained and what they are (PRODUCT.md §2.7, §3; FORMATS.md §4, §6,
// §9.2, §9.6): the stored verified bytes when the declared digest is known, a remembered digest
// failure while it is fresh, a conditional download when there is something to revalidate,
// otherwise a download. 304 and transient failures fall back to the last stored bytes.
// Downloaded bytes are checked against the listing: the digest, and for an archive the format, the
// digest of the archive itself and then the safe unpack (only after the digest matched,
// FORMATS.md §6.2). Stored bytes were checked when they were stored; a remembered digest failure
// stands for bytes that were not downloaded again.
import { fetchBounded } from '../net/fetch-bounded';
import type { FetchResult } from '../net/fetch-result';
import { positiveTtlMs } from '../net/cache-policy';
import type { MergedSkill } from '../parse/merge';
import { diag } from '../report/codes';
import type { DigestFailure, ProbeCacheEntry, StoredSkill } from '../store/records';
import type { Diagnostic, Settings, SkillArchive } from '../types';
import { detectArchiveFormat, unpackArchive } from '../verify/archive';
import { checkDigests, type DigestCheck } from '../verify/digest';
import { sha256, type Sha256 } from '../verify/sha256';
import { freshEntry, type ProbeIO } from './discover';
import { budgetMessage, type DownloadBudget } from './download-budget';
import type { Failure } from './status';

/** What the artifacts of one origin are obtained and checked with. */
export interface ArtifactContext extends ProbeIO {
  origin: string;
  settings: Settings;
  /** The probe's download budget (download-budget.ts); absent: only each artifact's own cap applies. */
  budget?: DownloadBudget;
}

/** The obtained bytes of one skill as checked against its listing. */
export interface Examined {
  /** The SKILL.md that is shown and handed on (for an archive: its root SKILL.md), null when none. */
  skillMd: Uint8Array | null;
  digest: DigestCheck;
  /** For an archive: its listing, the archive's raw digest and, once unpacked, its file-set digest. */
  archive: SkillArchive | null;
  /** Every verified file by path, for a snapshot-v1 check; null when none are known. */
  files: Map<string, Uint8Array> | null;
  archiveFailure: Failure<'invalid' | 'too-large' | 'unsupported'> | null;
  /** The stored verified copy the bytes are; null for bytes downloaded now or a remembered digest failure. */
  stored: StoredSkill | null;
  /** The URL the bytes were served from after redirects, when it is known. */
  finalUrl: string | null;
}

/** One skill's bytes as checked, or why none were obtained. */
type Obtained = Examined | { failed: Failure<'fetch-failed' | 'too-large' | 'invalid'> };

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

async function findStored(ctx: ArtifactContext, url: string, type: MergedSkill['type'], hexes: string[]): Promise<StoredSkill | null> {
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
function declaredKey(hexes: readonly string[]): string {
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

/**
 * One skill's bytes, checked against what its listing declares. Diagnostics are appended in order;
 * bytes downloaded now that match no declared digest are remembered in their cache entry (rememberedFailure).
 */
export async function obtain(ctx: ArtifactContext, merged: MergedSkill, url: string, needFiles: boolean, diagnostics: Diagnostic[]): Promise<Obtained> {
  const hexes = [...new Set(merged.declared.map((d) => d.hex.toLowerCase()))];
  const canReuse = !ctx.force && !merged.disagree && !(needFiles && merged.type === 'archive');
  if (canReuse && hexes.length > 0) {
    const stored = await findStored(ctx, url, merged.type, hexes);
    if (stored) return storedCopy(stored, merged, (await ctx.view.getCache(url))?.finalUrl ?? null);
  }
  const latest = ctx.view.getLatestSkill(url);
  const usable = latest && reusable(latest, merged.type) && !(needFiles && merged.type === 'archive') && (hexes.length === 0 || storedMatches(latest, merged.type, hexes)) ? latest : null;
  const entry = await ctx.view.getCache(url);
  const lastFinal = entry?.finalUrl ?? null;
  const now = ctx.clock.now();
  if (canReuse && usable && hexes.length === 0 && entry && entry.expiresAt > now) return storedCopy(usable, merged, lastFinal);
  const failed = merged.disagree || usable ? null : rememberedFailure(entry, hexes);
  // Bytes that match no declared digest are reported as such.
  const noteMismatch = (ex: Examined): Examined => {
    const what = merged.type === 'archive' ? `archive sha256 ${ex.digest.rawHex}` : `raw ${ex.digest.rawHex}, lf-normalized ${ex.digest.lfHex}`;
    diagnostics.push(diag('digest-mismatch', `Declared ${hexes.join(', ')}; actual ${what}.`, { url }));
    return ex;
  };
  if (failed && entry && !ctx.force && entry.expiresAt > now) return noteMismatch(rememberedMismatch(failed, 'not requested', entry.expiresAt, lastFinal, url, diagnostics));
  // The probe's download budget is used up: no request; the stored verified bytes stand in, if any.
  if (ctx.budget?.exhausted()) return overBudget(ctx.budget, usable, merged, lastFinal, url, diagnostics);
  const validated = usable ?? failed;
  const conditional = validated && entry && (entry.etag !== null || entry.lastModified !== null) ? { etag: entry.etag, lastModified: entry.lastModified } : null;
  const r = await fetchBounded(ctx.fetch, url, { kind: merged.type, origin: ctx.origin, clock: ctx.clock, conditional, guard: ctx.guard, meter: ctx.budget });
  if (r.kind === 'too-large' && r.budget && ctx.budget) return overBudget(ctx.budget, usable, merged, r.finalUrl ?? lastFinal, url, diagnostics);
  if (r.kind === 'ok') {
    const written = freshEntry(r, { url, origin: ctx.origin, kind: merged.type, now }, null);
    ctx.view.putCache(written);
    const ex = await downloaded(r, merged, url, diagnostics, ctx.sha256);
    if (!ex.digest.mismatch) return ex;
    if (!merged.disagree) ctx.view.putCache({ ...written, digestFailure: { declared: declaredKey(hexes), rawHex: ex.digest.rawHex, lfHex: ex.digest.lfHex } });
    return noteMismatch(ex);
  }
  if (r.kind === 'not-modified') {
    // A 304 answers the validators of `entry`, sent only for a stored copy or a remembered failure.
    const expiresAt = now + positiveTtlMs(r.cacheControl);
    if (entry) ctx.view.putCache({ ...entry, storedAt: now, expiresAt, failures: 0 });
    if (usable) return storedCopy(usable, merged, r.finalUrl);
    if (failed) return noteMismatch(rememberedMismatch(failed, 'the server answered 304', expiresAt, r.finalUrl, url, diagnostics));
    return { failed: { status: 'fetch-failed', code: 'fetch-client-error', message: 'The server answered 304 but no verified copy is stored.' } };
  }
  if (r.kind === 'transient' && usable) {
    diagnostics.push(diag('artifact-stale', 'The artifact could not be fetched now; the last verified bytes are used.', { url }));
    return storedCopy(usable, merged, lastFinal);
  }
  return { failed: failureOf(r) };
}

/** An artifact the probe's download budget has no room for: its stored verified bytes, else `probe-budget`. Nothing is written. */
function overBudget(budget: DownloadBudget, usable: StoredSkill | null, merged: MergedSkill, finalUrl: string | null, url: string, diagnostics: Diagnostic[]): Obtained {
  budget.refuse();
  if (!usable) return { failed: { status: 'fetch-failed', code: 'probe-budget', message: budgetMessage(budget) } };
  diagnostics.push(diag('probe-budget', "This probe's download budget was used up by the site's other artifacts; the last verified bytes are used.", { url }));
  return storedCopy(usable, merged, finalUrl);
}

/** Bytes that failed these declared digests before and were not downloaded again (`how`). */
function rememberedMismatch(f: DigestFailure, how: string, retryAfter: number, finalUrl: string | null, url: string, diagnostics: Diagnostic[]): Examined {
  const digest: DigestCheck = { rawHex: f.rawHex, lfHex: f.lfHex, matchedForm: null, undeclared: false, mismatch: true };
  diagnostics.push(diag('artifact-mismatch-remembered', `These bytes failed their declared digest before (${how}); not downloaded again before ${new Date(retryAfter).toISOString()}.`, { url }));
  return { skillMd: null, digest, archive: null, files: null, archiveFailure: null, stored: null, finalUrl };
}

/** The stored verified copy, checked when it was stored. */
function storedCopy(s: StoredSkill, merged: MergedSkill, finalUrl: string | null): Examined {
  const hexes = merged.declared.map((d) => d.hex.toLowerCase());
  const matchedForm = hexes.length === 0 ? null : merged.type === 'archive' || hexes.every((h) => h === s.digestRaw) ? 'raw' : 'lf-normalized';
  const digest: DigestCheck = { rawHex: s.digestRaw, lfHex: s.digestLf, matchedForm, undeclared: hexes.length === 0, mismatch: false };
  const archive: SkillArchive | null = s.archive ? { format: s.archive.format, entries: s.archive.entries, sha256: s.archive.sha256 } : null;
  if (archive && s.archive?.filesDigest !== undefined) archive.filesDigest = s.archive.filesDigest;
  const files = merged.type === 'skill-md' ? new Map([['SKILL.md', s.bytes]]) : null;
  return { skillMd: s.bytes, digest, archive, files, archiveFailure: null, stored: s, finalUrl };
}

type Downloaded = Extract<FetchResult, { kind: 'ok' }>;

async function downloadedArchive(got: Downloaded, merged: MergedSkill, url: string, diagnostics: Diagnostic[], hash: Sha256): Promise<Examined> {
  const check = await checkDigests(got.bytes, merged.declared, hash);
  const format = detectArchiveFormat(got.contentType, got.finalUrl, got.bytes);
  const out: Examined = { skillMd: null, digest: { ...check }, archive: null, files: null, archiveFailure: null, stored: null, finalUrl: got.finalUrl };
  if (format.ok) out.archive = { format: format.format, entries: [], sha256: check.rawHex };
  else diagnostics.push({ code: format.code, level: 'error', message: `${format.message} (archive sha256 ${check.rawHex})`, url });
  if (check.mismatch) return out;
  if (!format.ok) {
    out.archiveFailure = { status: format.status, code: format.code, message: format.message };
    return out;
  }
  const unpacked = await unpackArchive(got.bytes, format.format, undefined, hash);
  if (!unpacked.ok) {
    out.archiveFailure = { status: unpacked.status, code: unpacked.code, message: unpacked.message };
    return out;
  }
  out.archive = { format: unpacked.format, entries: unpacked.entries, sha256: check.rawHex, filesDigest: unpacked.filesDigest };
  out.skillMd = unpacked.skillMd;
  out.files = unpacked.files;
  // The digests shown and bound by approvals are those of the root SKILL.md, not of the archive.
  const root = await checkDigests(unpacked.skillMd, [], hash);
  out.digest = { ...check, rawHex: root.rawHex, lfHex: root.lfHex };
  return out;
}

/** Downloaded bytes checked against what the listing declares (hashed with `hash`). Diagnostics are appended in order. */
async function downloaded(got: Downloaded, merged: MergedSkill, url: string, diagnostics: Diagnostic[], hash: Sha256 = sha256): Promise<Examined> {
  if (merged.type === 'archive') return downloadedArchive(got, merged, url, diagnostics, hash);
  const digest = await checkDigests(got.bytes, merged.declared, hash);
  return { skillMd: got.bytes, digest, archive: null, files: new Map([['SKILL.md', got.bytes]]), archiveFailure: null, stored: null, finalUrl: got.finalUrl };
}
