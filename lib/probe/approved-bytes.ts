// What an approval is made of, and the bytes it lets out (PRODUCT.md §6, §9.2; FORMATS.md §6.6).
// An approval of stored verified bytes binds the LF digest of the SKILL.md and, for an archive, the
// set of its other files; the bytes a hand-off may use are the stored record of exactly that
// content, never the latest download of the same URL.
import type { StoredSkill } from '../store/records';
import type { Approval, ArchiveBinding, ArchiveFileDigest, KeyReport, SkillStatus } from '../types';
import { ROOT_SKILL_MD } from '../verify/archive';
import { archiveFileChanges, type ArchiveFileChange } from '../verify/file-changes';
import { approvalBindsContent, contentOfStored } from './status';

/**
 * The file set an approval of these bytes binds; null for a SKILL.md skill. Throws for an archive
 * whose files were never digested (a record of an older version): it cannot be approved as it is.
 */
export function archiveBindingOf(stored: StoredSkill): ArchiveBinding | null {
  const archive = stored.archive;
  if (!archive) return null;
  const undigested = archive.entries.find((e) => e.type === 'file' && e.path !== ROOT_SKILL_MD && e.sha256 === undefined);
  if (undigested) throw new Error(`the archive's file ${JSON.stringify(undigested.path)} has no recorded digest`);
  if (archive.filesDigest === undefined) throw new Error("the archive's file set has no recorded digest");
  return { filesDigest: archive.filesDigest, sha256: archive.sha256, files: storedFileSet(stored) };
}

/** Whether these stored bytes can be approved: a SKILL.md, or an archive whose every file was digested. */
export function canBind(stored: StoredSkill): boolean {
  try {
    archiveBindingOf(stored);
    return true;
  } catch {
    return false;
  }
}

export type ApprovalFields = Pick<Approval, 'keyFingerprint' | 'statusAtApproval' | 'name' | 'approvedAt'>;

/** The approval of exactly these stored bytes (see canBind first for an archive). */
export function approvalOf(stored: StoredSkill, fields: ApprovalFields): Approval {
  const approval: Approval = { origin: stored.origin, url: stored.url, digestLf: stored.digestLf, digestRaw: stored.digestRaw, ...fields };
  const archive = archiveBindingOf(stored);
  if (archive) approval.archive = archive;
  return approval;
}

/**
 * The key an approval made now binds: the origin's pinned key when the skill verified signed,
 * otherwise none (an unsigned or merely digest-verified skill binds no key).
 */
export function approvalKeyFingerprint(key: Pick<KeyReport, 'pinned'>, status: SkillStatus): string | null {
  return status === 'verified-signed' ? (key.pinned?.fingerprint ?? null) : null;
}

/** The user's approval, made now, of `status`/`name` over these stored bytes, under the origin's key report. */
export function approvalFor(stored: StoredSkill, key: Pick<KeyReport, 'pinned'>, skill: { status: SkillStatus; name: string }, approvedAt: number): Approval {
  return approvalOf(stored, { keyFingerprint: approvalKeyFingerprint(key, skill.status), statusAtApproval: skill.status, name: skill.name, approvedAt });
}

/** The store read approvedBytes needs. */
export interface ApprovedBytesStore {
  getSkill(origin: string, url: string, digestLf: string, filesDigest?: string): Promise<StoredSkill | null>;
}

/**
 * The stored bytes `approval` binds, or null when none are stored (or the stored record does not
 * match it: an archive approval of an older version binds no files, so it lets none out).
 */
export async function approvedBytes(store: ApprovedBytesStore, approval: Approval): Promise<StoredSkill | null> {
  const stored = await store.getSkill(approval.origin, approval.url, approval.digestLf, approval.archive?.filesDigest ?? '');
  if (!stored) return null;
  return approvalBindsContent(approval, contentOfStored(stored)).binds ? stored : null;
}

/** The files of stored archive bytes by path (the root SKILL.md included), or null for a SKILL.md skill. */
export function storedFiles(stored: StoredSkill): Map<string, Uint8Array> | null {
  if (!stored.archive) return null;
  const files = new Map<string, Uint8Array>([[ROOT_SKILL_MD, stored.bytes]]);
  for (const f of stored.archive.files ?? []) files.set(f.path, f.bytes);
  return files;
}

/** The file set of stored archive bytes as their listing records it (files with a digest, the root SKILL.md left out). */
export function storedFileSet(stored: StoredSkill): ArchiveFileDigest[] {
  return (stored.archive?.entries ?? [])
    .filter((e): e is typeof e & { sha256: string } => e.type === 'file' && e.path !== ROOT_SKILL_MD && e.sha256 !== undefined)
    .map((e) => ({ path: e.path, size: e.size, sha256: e.sha256 }));
}

/**
 * The files an archive gained, lost or changed since `approval` (for the popup's diff), or null when
 * there is nothing to compare: a SKILL.md skill, or an approval that binds no files.
 */
export function changesSinceApproval(approval: Approval | null, approved: StoredSkill | null, current: StoredSkill | null): ArchiveFileChange[] | null {
  if (!approval?.archive || !current?.archive) return null;
  return archiveFileChanges(approval.archive.files, storedFileSet(current), { before: approved ? storedFiles(approved) : null, after: storedFiles(current) });
}
