// One "Export for upload": the pre-flight over the stored verified bytes, then the ZIP and the
// record of what was exported. Pure: the caller reads the store and keeps the record.
import type { Approval, ArchiveEntry } from '../types';
import { ROOT_SKILL_MD } from '../verify/archive';
import { preflight, type ExportFile, type PreflightProblem } from './preflight';
import type { ExportRecord } from './record';
import { buildSkillZip, zipFilename } from './skill-zip';
import { t } from '../i18n';

/**
 * The verified bytes an export reads: what the store keeps of a skill (StoredSkill in
 * lib/store/records.ts has this shape), named here so that the export needs nothing of the store.
 */
export interface ExportSource {
  origin: string;
  url: string;
  digestLf: string;
  digestRaw: string;
  /** The SKILL.md bytes (for archives: the root SKILL.md). */
  bytes: Uint8Array;
  archive?: {
    sha256: string;
    entries: ArchiveEntry[];
    filesDigest?: string;
    /** The archive's regular files besides the root SKILL.md; absent on records of an older version. */
    files?: { path: string; bytes: Uint8Array }[];
  };
}

export type SkillExport = { ok: true; filename: string; zip: Uint8Array; record: ExportRecord } | { ok: false; error: 'preflight' | 'files-missing'; message: string; problems: PreflightProblem[] };

/**
 * The files of an archive skill besides its root SKILL.md, as stored with the verified bytes;
 * null when the archive lists other files that are not stored (bytes kept by an older version).
 */
export function archiveFiles(stored: ExportSource): ExportFile[] | null {
  const archive = stored.archive;
  if (!archive) return [];
  const listed = archive.entries.filter((e) => e.type === 'file' && e.path !== ROOT_SKILL_MD);
  const files = (archive.files ?? []).filter((f) => f.path !== ROOT_SKILL_MD);
  const have = new Set(files.map((f) => f.path));
  if (listed.some((e) => !have.has(e.path))) return null;
  return files;
}

export function exportSkill(stored: ExportSource, approval: Approval, now: number): SkillExport {
  const files = archiveFiles(stored);
  if (files === null) {
    return { ok: false, error: 'files-missing', message: t('err_export_files_missing'), problems: [] };
  }
  const check = preflight(stored.bytes, files);
  if (!check.ok) {
    return { ok: false, error: 'preflight', message: check.problems.map((p) => p.message).join(' '), problems: check.problems };
  }
  const zip = buildSkillZip(check.name, stored.bytes, files, new Date(now));
  const record: ExportRecord = {
    origin: stored.origin,
    url: stored.url,
    name: check.name,
    digestLf: stored.digestLf,
    digestRaw: stored.digestRaw,
    keyFingerprint: approval.keyFingerprint,
    archiveSha256: stored.archive?.sha256 ?? null,
    filesDigest: stored.archive?.filesDigest ?? null,
    exportedAt: now,
  };
  return { ok: true, filename: zipFilename(check.name), zip, record };
}
