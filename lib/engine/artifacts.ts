// Fetches and verifies the artifacts of one origin (PRODUCT.md §2.7, §3; FORMATS.md §3–§7,
// §9.2): up to 64 skills, 6 at a time per host (downloads overlap the hashing and verifying of
// bodies already received). A declared digest whose verified bytes are stored is
// not fetched again; 304 and transient failures fall back to the last stored bytes. A signature
// the stored bytes were verified with, under the same key, is not verified again (PRODUCT.md §2.7).
import { fetchBounded } from '../net/fetch-bounded';
import { LIMITS } from '../net/limits';
import { positiveTtlMs } from '../net/cache-policy';
import { decodeUtf8 } from '../parse/decode';
import { compareMetadata, parseFrontmatterText } from '../parse/skill-md';
import { diag } from '../report/codes';
import type {
  AdvisoryFlag,
  Approval,
  ArchiveEntry,
  Diagnostic,
  Settings,
  SignatureState,
  SnapshotReport,
} from '../types';
import type { DigestCheck } from '../verify/digest';
import type { DigestFailure, ProbeCacheEntry, StoredSkill } from '../trust/records';
import type { FetchResult } from '../net/fetch-result';
import type { Frontmatter } from '../parse/skill-md';
import type { MergedSkill } from '../parse/merge';
import { advisoryFlags } from '../verify/advisory';
import { detectArchiveFormat, unpackArchive } from '../verify/archive';
import { checkDigests, lfNormalize } from '../verify/digest';
import { verifySignatureB64 } from '../verify/ed25519';
import { verifySnapshot } from '../verify/snapshot-v1';
import { sha256, toHex } from '../verify/sha256';
import type { FetchContext } from './discover';
import type { KeyContext } from './keys';
import { mapPoolGrouped } from './pool';
import { decideStatus, type Failure, type StatusDecision } from './status';

export interface ArtifactContext extends FetchContext {
  origin: string;
  key: KeyContext;
  settings: Settings;
}

export interface SkillOutcome {
  merged: MergedSkill;
  decision: StatusDecision;
  /** Digests of the SKILL.md handed on (for archives: the root SKILL.md), null when none was obtained. */
  actual: { raw: string; lf: string; matchedForm: 'raw' | 'lf-normalized' | null } | null;
  skillMd: Uint8Array | null;
  frontmatter: Frontmatter | null;
  /** The bytes passed the digest and archive checks: their frontmatter may be displayed. */
  trusted: boolean;
  signature: { state: SignatureState; message: string | null };
  archive: { format: 'zip' | 'tar.gz'; entries: ArchiveEntry[]; sha256?: string } | null;
  snapshot: SnapshotReport | null;
  advisory: AdvisoryFlag[];
  fromStore: boolean;
  /** Where the bytes were served from after redirects (the last fetch's final URL), null when none is known. */
  finalUrl: string | null;
  diagnostics: Diagnostic[];
}

type Obtained =
  /** Downloaded now; `entry` is the cache entry written for it (a digest failure is added to it). */
  | { kind: 'bytes'; bytes: Uint8Array; contentType: string | null; finalUrl: string; entry: ProbeCacheEntry }
  /** The bytes failed these declared digests before and are not downloaded again (see rememberedFailure). */
  | { kind: 'known-mismatch'; failure: DigestFailure; why: 'fresh' | 'not-modified'; retryAfter: number; finalUrl: string | null }
  | { kind: 'stored'; stored: StoredSkill; why: 'digest-known' | 'not-modified' | 'fresh' | 'stale'; finalUrl: string | null }
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
      return { status: 'fetch-failed', code: 'fetch-transient', message: `The artifact could not be fetched now (${r.reason}${r.status !== null ? `, HTTP ${r.status}` : ''}) and no verified copy is stored.` };
    case 'too-large':
      return { status: 'too-large', code: 'fetch-too-large', message: `The artifact is over its ${r.limit}-byte cap.` };
    case 'blocked':
      return { status: 'invalid', code: 'url-blocked', message: `The artifact URL is not allowed (${r.reason}).` };
  }
}

/** Does a stored copy satisfy every declared digest (raw or lf form; archives by their raw digest)? */
function storedMatches(stored: StoredSkill, type: MergedSkill['type'], hexes: string[]): boolean {
  if (hexes.length === 0) return false;
  return hexes.every((h) =>
    type === 'archive' ? stored.archive?.sha256 === h : stored.digestRaw === h || stored.digestLf === h,
  );
}

async function findStored(ctx: ArtifactContext, url: string, type: MergedSkill['type'], hexes: string[]): Promise<StoredSkill | null> {
  if (type === 'skill-md') {
    for (const h of hexes) {
      const hit = await ctx.store.getSkill(ctx.origin, url, h);
      if (hit && storedMatches(hit, type, hexes)) return hit;
    }
  }
  const latest = await ctx.store.getLatestSkill(ctx.origin, url);
  return latest && storedMatches(latest, type, hexes) ? latest : null;
}

/** The declared digests as a DigestFailure records them. */
function declaredKey(hexes: readonly string[]): string {
  return [...hexes].sort().join(',');
}

/**
 * The remembered digest failure of `entry` when it applies to these declared digests. An
 * artifact whose bytes failed their digest is not downloaded again on every probe
 * (hardening issue 10): while its cache entry is fresh (Cache-Control clamped to [5 min, 24 h],
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

async function obtain(ctx: ArtifactContext, merged: MergedSkill, url: string, needFiles: boolean): Promise<Obtained> {
  const hexes = [...new Set(merged.declared.map((d) => d.hex.toLowerCase()))];
  const canReuse = !ctx.force && !merged.disagree && !(needFiles && merged.type === 'archive');
  if (canReuse && hexes.length > 0) {
    const stored = await findStored(ctx, url, merged.type, hexes);
    if (stored) return { kind: 'stored', stored, why: 'digest-known', finalUrl: (await ctx.store.getCache(url))?.finalUrl ?? null };
  }
  const latest = await ctx.store.getLatestSkill(ctx.origin, url);
  const usable = latest && !(needFiles && merged.type === 'archive') && (hexes.length === 0 || storedMatches(latest, merged.type, hexes)) ? latest : null;
  const entry = await ctx.store.getCache(url);
  const lastFinal = entry?.finalUrl ?? null;
  const now = ctx.clock.now();
  if (canReuse && usable && hexes.length === 0 && entry && entry.expiresAt > now) {
    return { kind: 'stored', stored: usable, why: 'fresh', finalUrl: lastFinal };
  }
  const failed = merged.disagree || usable ? null : rememberedFailure(entry, hexes);
  if (failed && entry && !ctx.force && entry.expiresAt > now) {
    return { kind: 'known-mismatch', failure: failed, why: 'fresh', retryAfter: entry.expiresAt, finalUrl: lastFinal };
  }
  const validated = usable ?? failed;
  const conditional = validated && entry && (entry.etag !== null || entry.lastModified !== null) ? { etag: entry.etag, lastModified: entry.lastModified } : null;
  const r = await fetchBounded(ctx.fetch, url, { kind: merged.type, origin: ctx.origin, clock: ctx.clock, conditional, guard: ctx.guard });
  if (r.kind === 'ok') {
    const written: ProbeCacheEntry = {
      url, origin: ctx.origin, kind: merged.type, positive: true, status: r.status, finalUrl: r.finalUrl, contentType: r.contentType,
      etag: r.etag, lastModified: r.lastModified, bytes: null, storedAt: now, expiresAt: now + positiveTtlMs(r.cacheControl), failures: 0,
    };
    await ctx.store.putCache(written);
    return { kind: 'bytes', bytes: r.bytes, contentType: r.contentType, finalUrl: r.finalUrl, entry: written };
  }
  if (r.kind === 'not-modified') {
    if (usable) {
      if (entry) await ctx.store.putCache({ ...entry, storedAt: now, expiresAt: now + positiveTtlMs(r.cacheControl), failures: 0 });
      return { kind: 'stored', stored: usable, why: 'not-modified', finalUrl: r.finalUrl };
    }
    if (failed && entry) {
      const expiresAt = now + positiveTtlMs(r.cacheControl);
      await ctx.store.putCache({ ...entry, storedAt: now, expiresAt, failures: 0 });
      return { kind: 'known-mismatch', failure: failed, why: 'not-modified', retryAfter: expiresAt, finalUrl: r.finalUrl };
    }
    return { kind: 'failed', failure: { status: 'fetch-failed', code: 'fetch-client-error', message: 'The server answered 304 but no verified copy is stored.' } };
  }
  if (r.kind === 'transient' && usable) return { kind: 'stored', stored: usable, why: 'stale', finalUrl: lastFinal };
  return { kind: 'failed', failure: failureOf(r) };
}

type Verified = NonNullable<StoredSkill['signatureVerified']>;

interface SignatureCheck {
  state: SignatureState;
  message: string | null;
  failure: { code: string; message: string } | null;
  /** For a valid signature: the key fingerprint and signature to remember with the bytes. */
  verified?: Verified;
}

function sameVerified(a: StoredSkill['signatureVerified'], b: Verified): boolean {
  return a !== undefined && a.fingerprint === b.fingerprint && a.signature === b.signature;
}

/**
 * The signature state of `skillMd`. `known` is the stored record with the same LF digest:
 * when it remembers this very signature verified under this very key, the bytes are not
 * verified again (PRODUCT.md §2.7), except in a forced probe.
 */
function signatureOf(
  ctx: ArtifactContext,
  merged: MergedSkill,
): (skillMd: Uint8Array, digestLf: string, known: StoredSkill | null) => Promise<SignatureCheck> {
  const k = ctx.key;
  const sig = merged.signature;
  return async (skillMd, digestLf, known) => {
    const st = k.report.state;
    if (k.report.unavailable || st === 'changed' || st === 'conflict' || st === 'stopped-signing') {
      return { state: 'not-checked', message: 'Not checked: the origin key does not match its pin.', failure: null };
    }
    if (k.malformed) {
      if (sig === null) return { state: 'missing', message: 'This entry has no signature.', failure: null };
      return { state: 'invalid', message: k.malformed.message, failure: { code: 'signing-key-malformed', message: k.malformed.message } };
    }
    if (k.verifyKey) {
      if (sig === null) return { state: 'missing', message: 'The origin signs, but this entry has no signature.', failure: null };
      const verified: Verified = { fingerprint: k.verifyKey.fingerprint, signature: sig };
      const valid: SignatureCheck = { state: 'valid', message: `Verified under ${k.verifyKey.fingerprint}.`, failure: null, verified };
      if (!ctx.force && known !== null && known.digestLf === digestLf && sameVerified(known.signatureVerified, verified)) return valid;
      const check = await verifySignatureB64(k.verifyKey.key, sig, lfNormalize(skillMd));
      if (check.ok) return valid;
      const code = check.code === 'signature-base64' || check.code === 'signature-length' ? 'signature-malformed' : 'bad-signature';
      return { state: 'invalid', message: check.message, failure: { code, message: `The signature is invalid: ${check.message}.` } };
    }
    return { state: 'not-signing', message: sig === null ? null : 'The origin offers no usable key; the signature is ignored.', failure: null };
  };
}

function indexName(merged: MergedSkill): string | null {
  for (const c of merged.candidates) if (c.source !== 'llms-txt' && c.name !== null) return c.name;
  return null;
}

function snapshotConfig(ctx: ArtifactContext, merged: MergedSkill): Settings['snapshotKeys'][number] | null {
  const name = indexName(merged);
  if (name === null) return null;
  return ctx.settings.snapshotKeys.find((k) => k.origin === ctx.origin && k.skillId === name) ?? null;
}

function emptyOutcome(merged: MergedSkill, decision: StatusDecision, diagnostics: Diagnostic[]): SkillOutcome {
  return {
    merged, decision, actual: null, skillMd: null, frontmatter: null, trusted: false,
    signature: { state: 'not-checked', message: null }, archive: null, snapshot: null, advisory: [], fromStore: false, finalUrl: null, diagnostics,
  };
}

function toolOf(merged: MergedSkill): string | null {
  for (const c of merged.candidates) if (c.tool !== null) return c.tool;
  return null;
}

/** One skill from its merged candidates to a status. Never throws for bad input. */
export async function processSkill(ctx: ArtifactContext, merged: MergedSkill, overLimit: boolean): Promise<SkillOutcome> {
  const diagnostics: Diagnostic[] = [...(merged.diagnostics ?? [])];
  for (const c of merged.candidates) diagnostics.push(...c.diagnostics);
  const url = merged.url;
  const approval: Approval | null = url ? await ctx.store.getApproval(ctx.origin, url) : null;
  const base = {
    refusal: merged.refusal,
    disagree: merged.disagree,
    obtainFailure: null,
    digest: null,
    archiveFailure: null,
    keyState: ctx.key.report.state,
    policyPin: ctx.key.report.pinnedBy === 'policy' ? (ctx.key.report.pinned?.fingerprint ?? null) : null,
    keyUnavailable: ctx.key.report.unavailable === true,
    signature: 'not-checked' as SignatureState,
    signatureFailure: null,
    snapshot: null,
    approval,
    currentFingerprint: null,
  };
  if (merged.refusal || url === null) {
    const refusal = merged.refusal ?? { status: 'invalid' as const, code: 'url-unusable', message: 'The skill URL cannot be used.' };
    return emptyOutcome(merged, decideStatus({ ...base, refusal }), diagnostics);
  }
  if (overLimit) {
    const failure: Failure<'fetch-failed'> = { status: 'fetch-failed', code: 'skill-limit', message: `Only the first ${LIMITS.maxSkillsPerOrigin} skills of an origin are fetched.` };
    return emptyOutcome(merged, decideStatus({ ...base, obtainFailure: failure }), diagnostics);
  }

  const snapCfg = snapshotConfig(ctx, merged);
  const got = await obtain(ctx, merged, url, snapCfg !== null);
  if (got.kind === 'failed') return emptyOutcome(merged, decideStatus({ ...base, obtainFailure: got.failure }), diagnostics);

  let skillMd: Uint8Array | null = null;
  let digest: DigestCheck;
  let archive: SkillOutcome['archive'] = null;
  let files: Map<string, Uint8Array> | null = null;
  let archiveFailure: Failure<'invalid' | 'too-large' | 'unsupported'> | null = null;
  let fromStore = false;

  if (got.kind === 'known-mismatch') {
    const f = got.failure;
    digest = { rawHex: f.rawHex, lfHex: f.lfHex, matchedForm: null, undeclared: false, mismatch: true };
    const how = got.why === 'fresh' ? 'not requested' : 'the server answered 304';
    diagnostics.push(diag('artifact-mismatch-remembered', `These bytes failed their declared digest before (${how}); not downloaded again before ${new Date(got.retryAfter).toISOString()}.`, { url }));
  } else if (got.kind === 'stored') {
    fromStore = true;
    const s = got.stored;
    if (got.why === 'stale') diagnostics.push(diag('artifact-stale', 'The artifact could not be fetched now; the last verified bytes are used.', { url }));
    skillMd = s.bytes;
    const hexes = merged.declared.map((d) => d.hex.toLowerCase());
    const matchedForm = hexes.length === 0 ? null : merged.type === 'archive' || hexes.every((h) => h === s.digestRaw) ? 'raw' : 'lf-normalized';
    digest = { rawHex: s.digestRaw, lfHex: s.digestLf, matchedForm, undeclared: hexes.length === 0, mismatch: false };
    if (s.archive) archive = { format: s.archive.format, entries: s.archive.entries, sha256: s.archive.sha256 };
    if (merged.type === 'skill-md') files = new Map([['SKILL.md', s.bytes]]);
  } else if (merged.type === 'archive') {
    const check = await checkDigests(got.bytes, merged.declared);
    const format = detectArchiveFormat(got.contentType, got.finalUrl, got.bytes);
    if (format.ok) archive = { format: format.format, entries: [], sha256: check.rawHex };
    else diagnostics.push({ code: format.code, level: 'error', message: `${format.message} (archive sha256 ${check.rawHex})`, url });
    digest = { ...check };
    if (!check.mismatch) {
      if (!format.ok) archiveFailure = { status: format.status, code: format.code, message: format.message };
      else {
        const unpacked = await unpackArchive(got.bytes, format.format);
        if (!unpacked.ok) archiveFailure = { status: unpacked.status, code: unpacked.code, message: unpacked.message };
        else {
          archive = { format: unpacked.format, entries: unpacked.entries, sha256: check.rawHex };
          skillMd = unpacked.skillMd;
          files = unpacked.files;
          const raw = toHex(await sha256(skillMd));
          const lf = lfNormalize(skillMd);
          digest = { ...check, rawHex: raw, lfHex: lf === skillMd ? raw : toHex(await sha256(lf)) };
        }
      }
    }
  } else {
    skillMd = got.bytes;
    digest = await checkDigests(got.bytes, merged.declared);
    files = new Map([['SKILL.md', got.bytes]]);
  }

  if (digest.mismatch) {
    const declared = [...new Set(merged.declared.map((d) => d.hex.toLowerCase()))].join(', ');
    const what = merged.type === 'archive' ? `archive sha256 ${digest.rawHex}` : `raw ${digest.rawHex}, lf-normalized ${digest.lfHex}`;
    diagnostics.push(diag('digest-mismatch', `Declared ${declared}; actual ${what}.`, { url }));
    if (got.kind === 'bytes' && !merged.disagree) {
      // Remember the failure with the validators the bytes came with (rememberedFailure).
      const hexes = [...new Set(merged.declared.map((d) => d.hex.toLowerCase()))];
      await ctx.store.putCache({ ...got.entry, digestFailure: { declared: declaredKey(hexes), rawHex: digest.rawHex, lfHex: digest.lfHex } });
    }
  }
  const bytesOk = !digest.mismatch && archiveFailure === null && skillMd !== null;
  let sig: SignatureCheck = { state: 'not-checked', message: null, failure: null };
  if (skillMd && bytesOk) {
    const known = got.kind === 'stored' ? got.stored : await ctx.store.getSkill(ctx.origin, url, digest.lfHex);
    sig = await signatureOf(ctx, merged)(skillMd, digest.lfHex, known);
  }
  // Decoded once: the frontmatter and the advisory flags read the same text.
  const text = skillMd ? decodeUtf8(skillMd) : null;
  const frontmatter = text !== null ? parseFrontmatterText(text) : null;
  if (frontmatter) {
    diagnostics.push(...frontmatter.diagnostics.map((d) => ({ ...d, url: d.url ?? url })));
    diagnostics.push(...compareMetadata(frontmatter, merged.candidates).map((d) => ({ ...d, url: d.url ?? url })));
  }

  let snapshot: SnapshotReport | null = null;
  if (snapCfg && bytesOk && files && frontmatter) {
    snapshot = await verifySnapshot({
      files, origin: ctx.origin, skillId: snapCfg.skillId, version: frontmatter.version, versionIsNonString: frontmatter.versionIsNonString,
      publicKey: snapCfg.publicKey, signature: snapCfg.signature,
      ...(snapCfg.revisionPin !== undefined ? { revisionPin: snapCfg.revisionPin } : {}),
      ...(snapCfg.versionPin !== undefined ? { versionPin: snapCfg.versionPin } : {}),
    });
  }

  const pinnedFp = ctx.key.verifyKey?.fingerprint ?? null;
  const decision = decideStatus({
    ...base,
    digest,
    archiveFailure,
    signature: sig.state,
    signatureFailure: sig.failure,
    snapshot,
    currentFingerprint: sig.state === 'valid' ? pinnedFp : null,
  });
  if (decision.approval.state === 'suspended') {
    diagnostics.push(diag('approval-suspended', `The approval is suspended: ${decision.approval.suspendedBecause ?? decision.status}.`, { url }));
  }

  if (!fromStore && bytesOk && skillMd && !merged.disagree && sig.state !== 'invalid') {
    const stored: StoredSkill = { origin: ctx.origin, url, digestLf: digest.lfHex, digestRaw: digest.rawHex, bytes: skillMd, storedAt: ctx.clock.now() };
    if (merged.type === 'archive' && archive && archive.sha256 !== undefined) {
      stored.archive = { sha256: archive.sha256, format: archive.format, entries: archive.entries };
      // The other verified files are kept beside the root SKILL.md for an export (issue 9).
      if (files) stored.archive.files = [...files].filter(([path]) => path !== 'SKILL.md').map(([path, bytes]) => ({ path, bytes }));
    }
    if (sig.verified) stored.signatureVerified = sig.verified;
    await ctx.store.putSkill(stored);
  } else if (got.kind === 'stored' && sig.verified && !merged.disagree && !sameVerified(got.stored.signatureVerified, sig.verified)) {
    // Stored bytes verified now under another key or signature: remember it (storedAt unchanged).
    await ctx.store.putSkill({ ...got.stored, signatureVerified: sig.verified });
  }

  return {
    merged,
    decision,
    actual: skillMd ? { raw: digest.rawHex, lf: digest.lfHex, matchedForm: digest.matchedForm } : null,
    skillMd,
    frontmatter,
    trusted: bytesOk && sig.state !== 'invalid',
    signature: { state: sig.state, message: sig.message },
    archive,
    snapshot,
    advisory: text !== null ? advisoryFlags(text, ctx.origin, { tool: toolOf(merged), frontmatter: frontmatter?.data ?? null }) : [],
    fromStore,
    finalUrl: got.finalUrl,
    diagnostics,
  };
}

/** The host an artifact is fetched from (its pool lane group); none for a skill that is not fetched. */
function hostOf(m: MergedSkill): string {
  if (m.url === null) return '';
  try {
    return new URL(m.url).host;
  } catch {
    return '';
  }
}

/** Every merged skill, 6 at a time per host; skills past the 64th fetchable one are not fetched. */
export async function processSkills(ctx: ArtifactContext, skills: MergedSkill[], onError: (m: MergedSkill, e: unknown) => SkillOutcome): Promise<SkillOutcome[]> {
  let fetchable = 0;
  const over = skills.map((m) => {
    if (m.refusal || m.url === null) return false;
    fetchable += 1;
    return fetchable > LIMITS.maxSkillsPerOrigin;
  });
  return mapPoolGrouped(skills, hostOf, LIMITS.artifactConcurrency, async (m, i) => {
    try {
      return await processSkill(ctx, m, over[i] === true);
    } catch (e) {
      return onError(m, e);
    }
  });
}

/** The outcome for a skill whose processing threw: `invalid` with `skill-error`, nothing stored. */
export function errorOutcome(ctx: ArtifactContext, merged: MergedSkill, e: unknown): SkillOutcome {
  const message = `Processing failed: ${e instanceof Error ? e.message : String(e)}`;
  const decision = decideStatus({
    refusal: { status: 'invalid', code: 'skill-error', message }, disagree: false, obtainFailure: null, digest: null, archiveFailure: null,
    keyState: ctx.key.report.state, keyUnavailable: false, signature: 'not-checked', signatureFailure: null, snapshot: null, approval: null, currentFingerprint: null,
  });
  return emptyOutcome(merged, decision, [diag('skill-error', message, merged.url ? { url: merged.url } : {})]);
}
