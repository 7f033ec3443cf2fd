// What the obtained bytes of one skill are (FORMATS.md §4, §6; PRODUCT.md §3): the digest
// check, and for an archive the format, the digest of the archive itself and then the safe
// unpack (only after the digest matched, FORMATS.md §6.2). Stored bytes were checked when they
// were stored; a remembered digest failure stands for bytes that were not downloaded again.
import type { MergedSkill } from '../parse/merge';
import { diag } from '../report/codes';
import type { Diagnostic, SkillArchive } from '../types';
import { detectArchiveFormat, unpackArchive } from '../verify/archive';
import { checkDigests, lfNormalize, type DigestCheck } from '../verify/digest';
import { sha256, toHex, type Sha256 } from '../verify/sha256';
import type { Obtained } from './artifact-obtain';
import type { Failure } from './status';

export interface Examined {
  /** The SKILL.md that is shown and handed on (for an archive: its root SKILL.md), null when none. */
  skillMd: Uint8Array | null;
  digest: DigestCheck;
  /** For an archive: its listing, the archive's raw digest and, once unpacked, its file-set digest. */
  archive: SkillArchive | null;
  /** Every verified file by path, for a snapshot-v1 check; null when none are known. */
  files: Map<string, Uint8Array> | null;
  archiveFailure: Failure<'invalid' | 'too-large' | 'unsupported'> | null;
  /** The bytes are the stored verified copy. */
  fromStore: boolean;
}

export type Got<K extends Obtained['kind']> = Extract<Obtained, { kind: K }>;

export function rememberedMismatch(got: Got<'known-mismatch'>, url: string, diagnostics: Diagnostic[]): Examined {
  const f = got.failure;
  const digest: DigestCheck = { rawHex: f.rawHex, lfHex: f.lfHex, matchedForm: null, undeclared: false, mismatch: true };
  const how = got.why === 'fresh' ? 'not requested' : 'the server answered 304';
  diagnostics.push(diag('artifact-mismatch-remembered', `These bytes failed their declared digest before (${how}); not downloaded again before ${new Date(got.retryAfter).toISOString()}.`, { url }));
  return { skillMd: null, digest, archive: null, files: null, archiveFailure: null, fromStore: false };
}

export function storedCopy(got: Got<'stored'>, merged: MergedSkill, url: string, diagnostics: Diagnostic[]): Examined {
  const s = got.stored;
  if (got.why === 'stale') diagnostics.push(diag('artifact-stale', 'The artifact could not be fetched now; the last verified bytes are used.', { url }));
  if (got.why === 'budget') diagnostics.push(diag('probe-budget', "This probe's download budget was used up by the site's other artifacts; the last verified bytes are used.", { url }));
  const hexes = merged.declared.map((d) => d.hex.toLowerCase());
  const matchedForm = hexes.length === 0 ? null : merged.type === 'archive' || hexes.every((h) => h === s.digestRaw) ? 'raw' : 'lf-normalized';
  const digest: DigestCheck = { rawHex: s.digestRaw, lfHex: s.digestLf, matchedForm, undeclared: hexes.length === 0, mismatch: false };
  const archive: SkillArchive | null = s.archive ? { format: s.archive.format, entries: s.archive.entries, sha256: s.archive.sha256 } : null;
  if (archive && s.archive?.filesDigest !== undefined) archive.filesDigest = s.archive.filesDigest;
  const files = merged.type === 'skill-md' ? new Map([['SKILL.md', s.bytes]]) : null;
  return { skillMd: s.bytes, digest, archive, files, archiveFailure: null, fromStore: true };
}

async function downloadedArchive(got: Got<'bytes'>, merged: MergedSkill, url: string, diagnostics: Diagnostic[], hash: Sha256): Promise<Examined> {
  const check = await checkDigests(got.bytes, merged.declared, hash);
  const format = detectArchiveFormat(got.contentType, got.finalUrl, got.bytes);
  const out: Examined = { skillMd: null, digest: { ...check }, archive: null, files: null, archiveFailure: null, fromStore: false };
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
  const raw = toHex(await hash(unpacked.skillMd));
  const lf = lfNormalize(unpacked.skillMd);
  out.digest = { ...check, rawHex: raw, lfHex: lf === unpacked.skillMd ? raw : toHex(await hash(lf)) };
  return out;
}

async function downloadedSkillMd(got: Got<'bytes'>, merged: MergedSkill, hash: Sha256): Promise<Examined> {
  const digest = await checkDigests(got.bytes, merged.declared, hash);
  return { skillMd: got.bytes, digest, archive: null, files: new Map([['SKILL.md', got.bytes]]), archiveFailure: null, fromStore: false };
}

/** Downloaded bytes checked against what the listing declares (hashed with `hash`). Diagnostics are appended in order. */
export function downloaded(got: Got<'bytes'>, merged: MergedSkill, url: string, diagnostics: Diagnostic[], hash: Sha256 = sha256): Promise<Examined> {
  return merged.type === 'archive' ? downloadedArchive(got, merged, url, diagnostics, hash) : downloadedSkillMd(got, merged, hash);
}
