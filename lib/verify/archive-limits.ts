// Caps for an in-memory unpack (PRODUCT.md §2.3, FORMATS.md §6.3) and the shape both readers return.
import { capFor } from '../net/limits';
import type { ArchiveEntry } from '../types';

export const DEFAULT_MAX_FILES = 512;
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The root SKILL.md is the one file shown and handed on: it gets the cap of a plain SKILL.md
 * (256 KiB, FORMATS.md §9.1), so an archive is no way around that cap.
 */
export const DEFAULT_MAX_SKILL_MD = capFor('skill-md');

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
  /** Bytes of the root SKILL.md. */
  maxSkillMd: number;
}

function positiveInteger(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

export function resolveLimits(limits?: { maxFiles?: number; maxBytes?: number; maxSkillMd?: number }): ArchiveLimits {
  const maxFiles = positiveInteger(limits?.maxFiles, DEFAULT_MAX_FILES);
  const maxBytes = positiveInteger(limits?.maxBytes, DEFAULT_MAX_BYTES);
  const maxSkillMd = positiveInteger(limits?.maxSkillMd, DEFAULT_MAX_SKILL_MD);
  return { maxFiles, maxBytes, maxEntries: Math.max(maxFiles * 8, 64), maxSkillMd };
}

/** What a reader hands back before the root SKILL.md rule is applied. */
export interface Unpacked {
  ok: true;
  entries: ArchiveEntry[];
  files: Map<string, Uint8Array>;
}
