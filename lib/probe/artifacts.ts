// Fetches and verifies the artifacts of one origin (PRODUCT.md §2.7, §3; FORMATS.md §3–§7,
// §9.2): up to 64 skills, 6 at a time per host (downloads overlap the hashing and verifying of
// bodies already received). A declared digest whose verified bytes are stored is
// not fetched again; 304 and transient failures fall back to the last stored bytes. A signature
// the stored bytes were verified with, under the same key, is not verified again (PRODUCT.md §2.7).
// Obtaining the bytes and checking them against the listing live beside this file (artifact-obtain.ts).
import { LIMITS } from '../net/limits';
import { parseUrl } from '../net/url-safety';
import { decodeUtf8 } from '../parse/decode';
import type { MergedSkill } from '../parse/merge';
import { compareMetadata, frontmatterUnreadable, parseFrontmatterText, type Frontmatter } from '../parse/skill-md';
import { diag } from '../report/codes';
import type { SkillOutcome, StatusDecision } from '../report/skill-outcome';
import type { StoredSkill } from '../store/records';
import type { Approval, Diagnostic, Settings, SignatureState, SkillReview, SnapshotReport } from '../types';
import { advisoryFlags } from '../verify/advisory';
import { lfNormalize } from '../verify/digest';
import { verifySignatureB64 } from '../verify/ed25519';
import { verifySnapshot } from '../verify/snapshot-v1';
import { obtain, type ArtifactContext, type Examined } from './artifact-obtain';
import type { KeyOutcome } from './keys';
import { mapPoolGrouped } from './pool';
import { reviewExamined, reviewStored } from './skill-review';
import { decideStatus, type Failure, type StatusFacts } from './status';

function snapshotConfig(ctx: ArtifactContext, merged: MergedSkill): Settings['snapshotKeys'][number] | null {
  // The name the index gives the skill.
  const name = merged.candidates.find((c) => c.source !== 'llms-txt' && c.name !== null)?.name ?? null;
  if (name === null) return null;
  return ctx.settings.snapshotKeys.find((k) => k.origin === ctx.origin && k.skillId === name) ?? null;
}

function emptyOutcome(merged: MergedSkill, decision: StatusDecision, diagnostics: Diagnostic[]): SkillOutcome {
  return {
    merged,
    decision,
    actual: null,
    skillMd: null,
    frontmatter: null,
    trusted: false,
    signature: { state: 'not-checked', message: null },
    archive: null,
    snapshot: null,
    advisory: [],
    review: null,
    fromStore: false,
    finalUrl: null,
    diagnostics,
  };
}

/** The diagnostics a skill starts with: the merge's findings, then each candidate's. */
function listingDiagnostics(merged: MergedSkill): Diagnostic[] {
  return [...(merged.diagnostics ?? []), ...merged.candidates.flatMap((c) => c.diagnostics)];
}

/** The status facts known before any byte is obtained: the listing, the key (null when it is not known) and the approval. */
function statusBase(key: KeyOutcome | null, merged: Pick<MergedSkill, 'refusal' | 'disagree'>, approval: Approval | null): StatusFacts {
  return {
    refusal: merged.refusal,
    disagree: merged.disagree,
    obtainFailure: null,
    digest: null,
    archiveFailure: null,
    keyState: key?.report.state ?? 'none',
    policyPin: key?.report.pinnedBy === 'policy' ? (key.report.pinned?.fingerprint ?? null) : null,
    keyUnavailable: key?.report.unavailable === true,
    signature: 'not-checked',
    signatureFailure: null,
    snapshot: null,
    approval,
    archiveFiles: null,
    currentFingerprint: null,
  };
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

const NOT_CHECKED: SignatureCheck = { state: 'not-checked', message: null, failure: null };

/**
 * The signature state of `skillMd` under the origin's key (PRODUCT.md §2.7, §5; FORMATS.md §5,
 * §10 items 7–8). `known` is the stored record with the same LF digest: when it remembers this very
 * signature verified under this very key, the bytes are not verified again, except in a forced probe.
 */
async function signatureOf(ctx: ArtifactContext, k: KeyOutcome, merged: MergedSkill, skillMd: Uint8Array, digestLf: string, known: StoredSkill | null): Promise<SignatureCheck> {
  const sig = merged.signature;
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
}

/** The SKILL.md decoded once, so that the frontmatter and the advisory flags read the same text. */
function readText(skillMd: Uint8Array | null, merged: MergedSkill, url: string, diagnostics: Diagnostic[]): { text: string | null; frontmatter: Frontmatter | null } {
  const text = skillMd ? decodeUtf8(skillMd) : null;
  const frontmatter = text !== null ? parseFrontmatterText(text) : null;
  if (frontmatter) {
    for (const d of [...frontmatter.diagnostics, ...compareMetadata(frontmatter, merged.candidates)]) diagnostics.push({ ...d, url: d.url ?? url });
  }
  return { text, frontmatter };
}

/** The user-configured snapshot-v1 check (FORMATS.md §7) over the verified files. */
function checkSnapshot(ctx: ArtifactContext, cfg: Settings['snapshotKeys'][number], files: Map<string, Uint8Array>, frontmatter: Frontmatter): Promise<SnapshotReport> {
  // The configuration names the skill, its key and signature, and the pins it may set.
  return verifySnapshot({ ...cfg, files, origin: ctx.origin, version: frontmatter.version, versionIsNonString: frontmatter.versionIsNonString });
}

/**
 * Keeps what was verified: bytes downloaded now that passed every check (for an archive with its
 * listing and files), or, for stored bytes, a signature verified now under another key or signature.
 */
async function keepVerified(ctx: ArtifactContext, merged: MergedSkill, url: string, ex: Examined, bytesOk: boolean, sig: SignatureCheck): Promise<void> {
  const { skillMd, digest, archive, files } = ex;
  if (ex.stored === null && bytesOk && skillMd && !merged.disagree && sig.state !== 'invalid') {
    const stored: StoredSkill = { origin: ctx.origin, url, digestLf: digest.lfHex, digestRaw: digest.rawHex, bytes: skillMd, storedAt: ctx.clock.now() };
    if (merged.type === 'archive' && archive && archive.sha256 !== undefined) {
      stored.archive = { sha256: archive.sha256, format: archive.format, entries: archive.entries };
      if (archive.filesDigest !== undefined) stored.archive.filesDigest = archive.filesDigest;
      // The other verified files are kept beside the root SKILL.md for an export.
      if (files) stored.archive.files = [...files].filter(([path]) => path !== 'SKILL.md').map(([path, bytes]) => ({ path, bytes }));
    }
    if (sig.verified) stored.signatureVerified = sig.verified;
    ctx.view.putSkill(stored);
  } else if (ex.stored && sig.verified && !merged.disagree && !sameVerified(ex.stored.signatureVerified, sig.verified)) {
    // Stored bytes verified now under another key or signature: remember it (storedAt unchanged).
    ctx.view.putSkill({ ...ex.stored, signatureVerified: sig.verified });
  }
}

/** The review of bytes that passed the checks: every file the probe has, or the stored record's. */
function reviewOfExamined(origin: string, ex: Examined): SkillReview | null {
  if (ex.skillMd === null) return null;
  if (ex.stored && (ex.files === null || ex.stored.archive !== undefined)) return reviewStored(ex.stored);
  const files = ex.files ?? new Map([['SKILL.md', ex.skillMd]]);
  return reviewExamined(origin, ex.digest.lfHex, ex.archive?.filesDigest ?? '', files);
}

/**
 * One skill from its merged candidates to a status. Never throws for bad input. The bytes are
 * obtained and checked against the listing while the origin's key (`keys`) may still be asked;
 * the status and the signature wait for it.
 */
export async function processSkill(ctx: ArtifactContext, keys: Promise<KeyOutcome>, merged: MergedSkill, overLimit: boolean): Promise<SkillOutcome> {
  const diagnostics = listingDiagnostics(merged);
  const url = merged.url;
  const approval = url ? ctx.view.getApproval(url) : null;
  if (merged.refusal || url === null) {
    // Its listing refused it, or its URL cannot be used: no request (FORMATS.md §10 items 1–2).
    const refusal = merged.refusal ?? { status: 'invalid' as const, code: 'url-unusable', message: 'The skill URL cannot be used.' };
    return emptyOutcome(merged, decideStatus({ ...statusBase(await keys, merged, approval), refusal }), diagnostics);
  }
  if (overLimit) {
    const obtainFailure: Failure<'fetch-failed'> = { status: 'fetch-failed', code: 'skill-limit', message: `Only the first ${LIMITS.maxSkillsPerOrigin} skills of an origin are fetched.` };
    return emptyOutcome(merged, decideStatus({ ...statusBase(await keys, merged, approval), obtainFailure }), diagnostics);
  }

  const snapCfg = snapshotConfig(ctx, merged);
  const ex = await obtain(ctx, merged, url, snapCfg !== null, diagnostics);
  const key = await keys;
  const base = statusBase(key, merged, approval);
  if ('failed' in ex) return emptyOutcome(merged, decideStatus({ ...base, obtainFailure: ex.failed }), diagnostics);
  const { skillMd, digest } = ex;

  const bytesOk = !digest.mismatch && ex.archiveFailure === null && skillMd !== null;
  // The signature of bytes that passed the digest and archive checks, against what is stored for their LF digest.
  const known = ex.stored ?? ctx.view.getSkill(url, digest.lfHex, ex.archive?.filesDigest ?? '');
  const sig = skillMd && bytesOk ? await signatureOf(ctx, key, merged, skillMd, digest.lfHex, known) : NOT_CHECKED;
  const { text, frontmatter } = readText(skillMd, merged, url, diagnostics);
  const snapshot = snapCfg && bytesOk && ex.files && frontmatter ? await checkSnapshot(ctx, snapCfg, ex.files, frontmatter) : null;
  const decision = decideStatus({
    ...base,
    digest,
    archiveFailure: ex.archiveFailure,
    signature: sig.state,
    signatureFailure: sig.failure,
    snapshot,
    archiveFiles: merged.type === 'archive' ? { filesDigest: ex.archive?.filesDigest ?? null } : null,
    currentFingerprint: sig.state === 'valid' ? (key.verifyKey?.fingerprint ?? null) : null,
  });
  if (decision.approval.state === 'suspended') {
    const why =
      decision.approval.code === 'approval-files-unbound'
        ? "it was made by an earlier version and binds the SKILL.md only, not the archive's other files; approve again to bind them"
        : (decision.approval.suspendedBecause ?? decision.status);
    diagnostics.push(diag('approval-suspended', `The approval is suspended: ${why}.`, { url }));
  }
  await keepVerified(ctx, merged, url, ex, bytesOk, sig);

  return {
    merged,
    decision,
    actual: skillMd ? { raw: digest.rawHex, lf: digest.lfHex, matchedForm: digest.matchedForm } : null,
    skillMd,
    frontmatter,
    trusted: bytesOk && sig.state !== 'invalid',
    signature: { state: sig.state, message: sig.message },
    archive: ex.archive,
    snapshot,
    advisory:
      text !== null
        ? advisoryFlags(text, ctx.origin, {
            tool: merged.candidates.find((c) => c.tool !== null)?.tool ?? null,
            frontmatter: frontmatter?.data ?? null,
            frontmatterUnreadable: frontmatter !== null && frontmatterUnreadable(frontmatter),
          })
        : [],
    review: bytesOk ? reviewOfExamined(ctx.origin, ex) : null,
    fromStore: ex.stored !== null,
    finalUrl: ex.finalUrl,
    diagnostics,
  };
}

/** The host an artifact is fetched from (its pool lane group); none for a skill that is not fetched. */
function hostOf(m: MergedSkill): string {
  return m.url === null ? '' : (parseUrl(m.url)?.host ?? '');
}

const fetchable = (m: MergedSkill): boolean => !m.refusal && m.url !== null;

/** For each skill, whether it is past the per-origin cap: only the first maxSkillsPerOrigin fetchable ones are fetched. */
function pastCap(skills: readonly MergedSkill[]): boolean[] {
  let n = 0;
  return skills.map((m) => fetchable(m) && ++n > LIMITS.maxSkillsPerOrigin);
}

/** The artifact URLs a probe downloads for these skills, when nothing of them is stored (refusals and skills past the cap left out). */
export function artifactUrls(skills: readonly MergedSkill[]): string[] {
  const over = pastCap(skills);
  return skills.flatMap((m, i) => (fetchable(m) && !over[i] && m.url !== null ? [m.url] : []));
}

/**
 * Every merged skill, 6 at a time per host; skills past the 64th fetchable one are not fetched.
 * The downloads start at once, beside the key's own request (`keys`); once the key could not be
 * resolved, no further skill is started (the probe fails with that error). A skill whose
 * processing throws is `invalid` (errorOutcome).
 */
export async function processSkills(ctx: ArtifactContext, keys: Promise<KeyOutcome>, skills: MergedSkill[]): Promise<SkillOutcome[]> {
  let known: KeyOutcome | null = null;
  let keyFailure: { error: unknown } | null = null;
  keys.then(
    (key) => {
      known = key;
    },
    (error: unknown) => {
      keyFailure = { error };
    },
  );
  const over = pastCap(skills);
  return mapPoolGrouped(skills, hostOf, LIMITS.artifactConcurrency, async (m, i) => {
    try {
      if (keyFailure) throw (keyFailure as { error: unknown }).error;
      return await processSkill(ctx, keys, m, over[i] === true);
    } catch (e) {
      return errorOutcome(known, m, e);
    }
  });
}

/** The outcome for a skill whose processing threw: `invalid` with `skill-error`, nothing stored (`key`: null when it is not known). */
function errorOutcome(key: KeyOutcome | null, merged: MergedSkill, e: unknown): SkillOutcome {
  const message = `Processing failed: ${e instanceof Error ? e.message : String(e)}`;
  const decision = decideStatus({ ...statusBase(key, { refusal: null, disagree: false }, null), refusal: { status: 'invalid', code: 'skill-error', message } });
  return emptyOutcome(merged, decision, [diag('skill-error', message, merged.url ? { url: merged.url } : {})]);
}
