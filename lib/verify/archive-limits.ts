// Caps for an in-memory unpack (PRODUCT.md §2.3, FORMATS.md §6.3) and the shape both readers return.
import type { ArchiveEntry } from '../types';

export const DEFAULT_MAX_FILES = 512;
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export interface ArchiveLimits {
  /** Regular files, directories not counted. */
  maxFiles: number;
  /** Sum of the unpacked sizes of the regular files. */
  maxBytes: number;
  /**
   * All entries, directories included: keeps the entry list a report shows bounded. Eight times
   * the file cap (4,096 by default); going over it is `too-large` as well.
   */
  maxEntries: number;
}

function positiveInteger(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

export function resolveLimits(limits?: { maxFiles?: number; maxBytes?: number }): ArchiveLimits {
  const maxFiles = positiveInteger(limits?.maxFiles, DEFAULT_MAX_FILES);
  const maxBytes = positiveInteger(limits?.maxBytes, DEFAULT_MAX_BYTES);
  return { maxFiles, maxBytes, maxEntries: Math.max(maxFiles * 8, 64) };
}

/** What a reader hands back before the root SKILL.md rule is applied. */
export interface Unpacked {
  ok: true;
  entries: ArchiveEntry[];
  files: Map<string, Uint8Array>;
}
