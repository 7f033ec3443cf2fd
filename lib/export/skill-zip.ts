// The ZIP "Export for upload" hands over: one folder named after the skill at the top,
// holding SKILL.md with the verified bytes unchanged and, for an archive skill, the archive's
// verified files under the same relative paths. Built in memory with fflate; the bytes are the
// stored verified bytes, never fetched again.
import { zipSync, type Zippable } from 'fflate';
import { ROOT_SKILL_MD } from '../verify/archive';
import type { ExportFile } from './preflight';

/**
 * The ZIP of `folder`/SKILL.md plus `files` under `folder`/. `folder` is the name the pre-flight
 * accepted. `mtime` is recorded on every entry (the export date; ZIP keeps it to two seconds).
 * Only file entries are written: folders are implied by the paths, so the listing is exactly the
 * skill's files.
 */
export function buildSkillZip(folder: string, skillMd: Uint8Array, files: readonly ExportFile[], mtime: Date): Uint8Array {
  const entries: Zippable = { [`${folder}/${ROOT_SKILL_MD}`]: [skillMd, { mtime }] };
  // A stable order: the same skill gives the same listing.
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    entries[`${folder}/${f.path}`] = [f.bytes, { mtime }];
  }
  return zipSync(entries, { level: 6 });
}

/** The download's file name: the folder name and `.zip` (the name is a-z, 0-9 and hyphens only). */
export function zipFilename(folder: string): string {
  return `${folder}.zip`;
}
