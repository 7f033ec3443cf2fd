// "An export is a snapshot, and Skillpin says so": what was exported for upload is
// recorded (origin, URL, digest, key, date) so that a later `content-changed` or `key-changed`,
// or a newer approval of other bytes, marks the exported copy out of date.
import { HEX64, lazy, parseInput, z } from '../input';
import type { SkillReport } from '../types';

/** A stored record's shape. */
const RECORD = lazy(() => {
  const str = z.string().check(z.minLength(1), z.maxLength(8192));
  const hex = z.string().check(z.regex(HEX64));
  return z.object({
    origin: str,
    url: str,
    name: z.string(),
    digestLf: hex,
    digestRaw: hex,
    keyFingerprint: z.nullable(str),
    /** For an archive skill: the raw SHA-256 of the verified archive its files came from. */
    archiveSha256: z.nullable(hex),
    /** For an archive skill: the digest of the file set exported (FORMATS.md §6.6); absent on records written before it was recorded. */
    filesDigest: z.optional(z.nullable(hex)),
    exportedAt: z.number(),
  });
});

/**
 * What was exported (as stored): the skill (origin, URL), the frontmatter name (the folder inside
 * the ZIP), the digests of the SKILL.md exported (the approved, verified bytes) and the pinned key
 * the approval was bound to (null when the origin did not sign). filesDigest is null before it was
 * recorded.
 */
export type ExportRecord = Omit<z.output<ReturnType<typeof RECORD>>, 'filesDigest'> & { filesDigest: string | null };

/** A record with whether the exported copy still matches what the site serves. */
export interface ExportStatus extends ExportRecord {
  outOfDate: boolean;
}

/** Records kept (the most recent export of each skill; the oldest go first beyond this). */
export const MAX_EXPORT_RECORDS = 1000;

/** A stored record, or null when the value does not have its shape (it is then dropped, nothing else). */
export function toExportRecord(v: unknown): ExportRecord | null {
  const r = parseInput(RECORD(), v);
  return r.ok ? { ...r.value, filesDigest: r.value.filesDigest ?? null } : null;
}

/** Every well-formed record of a stored list (anything else stored there yields none). */
export function parseExportRecords(v: unknown): ExportRecord[] {
  if (!Array.isArray(v)) return [];
  return v.map(toExportRecord).filter((r): r is ExportRecord => r !== null);
}

/** The list with `record` as the one export of its skill, newest last, bounded. */
export function withExport(records: readonly ExportRecord[], record: ExportRecord): ExportRecord[] {
  const rest = records.filter((r) => r.origin !== record.origin || r.url !== record.url);
  return [...rest, record].slice(-MAX_EXPORT_RECORDS);
}

/**
 * Is the exported copy out of date against the skill as last probed? It is when the skill became
 * `content-changed` or `key-changed`, or when the bytes (or the archive, or the key) it has now are
 * not the ones exported (the user approved newer bytes and has not exported them yet). A skill the
 * report no longer lists cannot be compared: not marked.
 */
export function isExportOutOfDate(record: ExportRecord, skill: SkillReport | null): boolean {
  if (!skill) return false;
  if (skill.status === 'content-changed' || skill.status === 'key-changed') return true;
  if (skill.actual && skill.actual.lf !== record.digestLf) return true;
  // An archive: the same files are the same export (a re-packed archive is not a change); a record
  // made before file sets were recorded compares the archive's own digest.
  if (record.filesDigest !== null && skill.archive?.filesDigest !== undefined) {
    if (skill.archive.filesDigest !== record.filesDigest) return true;
  } else if (record.archiveSha256 !== null && skill.archive?.sha256 !== undefined && skill.archive.sha256 !== record.archiveSha256) return true;
  const approved = skill.approval.approval;
  if (skill.approval.state === 'approved' && approved && approved.keyFingerprint !== record.keyFingerprint) return true;
  return false;
}
