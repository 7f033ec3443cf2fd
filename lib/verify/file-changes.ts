// What changed in an archive skill since it was approved: the files added, removed and
// changed, compared by path and raw SHA-256 (the file set of FORMATS.md §6.6), and for text files
// both versions as text, so the popup can show a line diff. Pure: the caller passes the digests and
// whatever bytes are stored.
import type { ArchiveFileDigest } from '../types';
import { compareCodePoints } from './json-ascii';

export interface ArchiveFileChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  /** The approved file; null for an added one. */
  before: { size: number; sha256: string } | null;
  /** The file now; null for a removed one. */
  after: { size: number; sha256: string } | null;
  /**
   * Both versions as text (an added file's old text and a removed file's new text are ''), for a
   * line diff; null when a side is not text (a NUL byte, not UTF-8, over the cap) or its bytes are not stored.
   */
  text: { before: string; after: string } | null;
}

/** A file larger than this is listed without its text. */
export const MAX_TEXT_DIFF_BYTES = 256 * 1024;
/** The text of all files of one answer together stays under this (the rest are listed without text). */
export const MAX_TEXT_DIFF_TOTAL = 1024 * 1024;

const fatal = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are text, else null. */
function asText(bytes: Uint8Array | undefined): string | null {
  if (!bytes || bytes.byteLength > MAX_TEXT_DIFF_BYTES || bytes.includes(0)) return null;
  try {
    return fatal.decode(bytes);
  } catch {
    return null;
  }
}

const shown = (f: ArchiveFileDigest | undefined): { size: number; sha256: string } | null => (f ? { size: f.size, sha256: f.sha256 } : null);

/**
 * The changes from `before` (the approved file set) to `after` (the current one), sorted by path.
 * `bytes` holds the stored files of either side by path (null: not stored).
 */
export function archiveFileChanges(
  before: readonly ArchiveFileDigest[],
  after: readonly ArchiveFileDigest[],
  bytes: { before: ReadonlyMap<string, Uint8Array> | null; after: ReadonlyMap<string, Uint8Array> | null },
): ArchiveFileChange[] {
  const was = new Map(before.map((f) => [f.path, f]));
  const now = new Map(after.map((f) => [f.path, f]));
  const paths = [...new Set([...was.keys(), ...now.keys()])].sort(compareCodePoints);
  let budget = MAX_TEXT_DIFF_TOTAL;
  const out: ArchiveFileChange[] = [];
  for (const path of paths) {
    const b = was.get(path);
    const a = now.get(path);
    if (b && a && b.sha256.toLowerCase() === a.sha256.toLowerCase()) continue;
    const change = !b ? 'added' : !a ? 'removed' : 'changed';
    const oldText = b ? asText(bytes.before?.get(path)) : '';
    const newText = a ? asText(bytes.after?.get(path)) : '';
    const size = (b?.size ?? 0) + (a?.size ?? 0);
    let text: ArchiveFileChange['text'] = null;
    if (oldText !== null && newText !== null && size <= budget) {
      text = { before: oldText, after: newText };
      budget -= size;
    }
    out.push({ path, change, before: shown(b), after: shown(a), text });
  }
  return out;
}
