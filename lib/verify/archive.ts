// Archives (`type: "archive"`): format detection and a safe in-memory unpack (PRODUCT.md §3,
// FORMATS.md §6). The digest of the archive bytes is checked by the caller before this runs.
// Nothing here writes files or runs anything; the result is bytes in memory, a listing with each
// file's digest, and the digest of the file set an approval binds (FORMATS.md §6.6).
import type { ArchiveEntry, ArchiveFileDigest } from '../types';
import { resolveLimits, type ArchiveLimits, type Unpacked } from './archive-limits';
import { invalid, tooLarge, unsupported, type ArchiveFailure } from './archive-names';
import { readTarGz } from './archive-tar';
import { readZip } from './archive-zip';
import { fileDigests, fileSetDigest } from './file-set';
import { sha256, toHex, type Sha256 } from './sha256';

export { detectArchiveFormat } from './archive-format';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_SKILL_MD } from './archive-limits';

export type ArchiveResult =
  | {
      ok: true;
      format: 'zip' | 'tar.gz';
      /** Every entry; a regular file with its raw SHA-256. */
      entries: ArchiveEntry[];
      files: Map<string, Uint8Array>;
      skillMd: Uint8Array;
      /** The regular files besides the root SKILL.md, sorted by path, with their digests. */
      fileSet: ArchiveFileDigest[];
      /** fileSetDigest(fileSet): what an approval binds besides the root SKILL.md. */
      filesDigest: string;
    }
  | { ok: false; status: 'invalid' | 'too-large' | 'unsupported'; code: string; message: string };

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

async function finish(format: 'zip' | 'tar.gz', unpacked: Unpacked, limits: ArchiveLimits, hash: Sha256): Promise<ArchiveResult> {
  const skillMd = unpacked.files.get(ROOT_SKILL_MD);
  if (!skillMd) return rootSkillMissing(unpacked.entries);
  if (skillMd.byteLength > limits.maxSkillMd) {
    // The same status a plain SKILL.md over its cap gets; nothing of the archive is kept.
    return tooLarge('archive-skill-md-too-large', `The root SKILL.md is ${skillMd.byteLength} bytes, over the ${limits.maxSkillMd}-byte cap of a SKILL.md.`);
  }
  const fileSet = await fileDigests(unpacked.files, hash);
  const digestOf = new Map(fileSet.map((f) => [f.path, f.sha256]));
  const rootDigest = toHex(await hash(skillMd));
  const entries = unpacked.entries.map((e) => {
    const sha256 = e.type !== 'file' ? undefined : e.path === ROOT_SKILL_MD ? rootDigest : digestOf.get(e.path);
    return sha256 === undefined ? e : { ...e, sha256 };
  });
  return { ok: true, format, entries, files: unpacked.files, skillMd, fileSet, filesDigest: fileSetDigest(fileSet) };
}

/**
 * Unpack an archive in memory. Caps default to 512 regular files and 16 MiB unpacked, and the
 * root SKILL.md to the 256 KiB of a plain one; going over any of them gives `too-large`. Every failure is a result with a stable code; this never throws.
 */
export async function unpackArchive(
  bytes: Uint8Array,
  format: 'zip' | 'tar.gz',
  limits?: { maxFiles?: number; maxBytes?: number; maxSkillMd?: number },
  hash: Sha256 = sha256,
): Promise<ArchiveResult> {
  try {
    const resolved = resolveLimits(limits);
    if (!(bytes instanceof Uint8Array)) return invalid('archive-unreadable', 'The archive bytes are missing.');
    let unpacked: Unpacked | ArchiveFailure;
    if (format === 'zip') unpacked = readZip(bytes, resolved);
    else if (format === 'tar.gz') unpacked = readTarGz(bytes, resolved);
    else return unsupported('archive-format-unsupported', `The archive format ${JSON.stringify(String(format))} is not supported.`);
    if (!unpacked.ok) return unpacked;
    return await finish(format, unpacked, resolved, hash);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return invalid('archive-unreadable', `The archive could not be read (${detail}).`);
  }
}
