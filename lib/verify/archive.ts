// Archives (`type: "archive"`): format detection and a safe in-memory unpack (PRODUCT.md §3,
// FORMATS.md §6). The digest of the archive bytes is checked by the caller before this runs.
// Nothing here writes files or runs anything; the result is bytes in memory and a listing.
import type { ArchiveEntry, ArchiveResult } from '../types';
import { resolveLimits, type Unpacked } from './archive-limits';
import { invalid, unsupported, type ArchiveFailure } from './archive-names';
import { readTarGz } from './archive-tar';
import { readZip } from './archive-zip';

export { detectArchiveFormat } from './archive-format';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES } from './archive-limits';

export const ROOT_SKILL_MD = 'SKILL.md';

function rootSkillMissing(entries: ArchiveEntry[]): ArchiveFailure {
  if (entries.length === 0) return invalid('archive-empty', 'The archive is empty; it must contain SKILL.md at its root.');
  const nested = entries.find((e) => e.type === 'file' && e.path.endsWith(`/${ROOT_SKILL_MD}`));
  const caseVariant = entries.find((e) => e.type === 'file' && !e.path.includes('/') && e.path.toLowerCase() === 'skill.md');
  let hint = '';
  if (caseVariant) hint = ` (it has ${JSON.stringify(caseVariant.path)}; the name is case-sensitive)`;
  else if (nested) hint = ` (it has ${JSON.stringify(nested.path)}; a wrapper directory does not count)`;
  return invalid('archive-no-root-skill-md', `The archive has no SKILL.md at its root${hint}.`);
}

function finish(format: 'zip' | 'tar.gz', unpacked: Unpacked): ArchiveResult {
  const skillMd = unpacked.files.get(ROOT_SKILL_MD);
  if (!skillMd) return rootSkillMissing(unpacked.entries);
  return { ok: true, format, entries: unpacked.entries, files: unpacked.files, skillMd };
}

/**
 * Unpack an archive in memory. Caps default to 512 regular files and 16 MiB unpacked; going over
 * either gives `too-large`. Every failure is a result with a stable code; this never throws.
 */
export async function unpackArchive(
  bytes: Uint8Array,
  format: 'zip' | 'tar.gz',
  limits?: { maxFiles?: number; maxBytes?: number },
): Promise<ArchiveResult> {
  try {
    const resolved = resolveLimits(limits);
    if (!(bytes instanceof Uint8Array)) return invalid('archive-unreadable', 'The archive bytes are missing.');
    let unpacked: Unpacked | ArchiveFailure;
    if (format === 'zip') unpacked = readZip(bytes, resolved);
    else if (format === 'tar.gz') unpacked = readTarGz(bytes, resolved);
    else return unsupported('archive-format-unsupported', `The archive format ${JSON.stringify(String(format))} is not supported.`);
    if (!unpacked.ok) return unpacked;
    return finish(format, unpacked);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return invalid('archive-unreadable', `The archive could not be read (${detail}).`);
  }
}
