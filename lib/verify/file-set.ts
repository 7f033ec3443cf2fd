// The file set of an archive skill (FORMATS.md §6.6): every regular file besides the root SKILL.md,
// by path, size and raw SHA-256, and one digest over that set. An approval of an archive binds the
// root SKILL.md by its LF digest (PRODUCT.md §9.2) and the other files by this set, so a re-packed
// archive with the same files (another compression, order or format) keeps its approval, and any
// added, removed or changed file ends it. The listing is serialized as agentskills-snapshot-v1's
// revision_input is (FORMATS.md §7: sorted by code point, ASCII-only JSON of [path, size, "sha256:hex"]).
import type { ArchiveFileDigest } from '../types';
import { asciiBytes, asciiJsonString, compareCodePoints } from './json-ascii';
import { sha256, sha256Sync, toHex, type Sha256 } from './sha256';

const ROOT = 'SKILL.md';

/** The file set of unpacked archive files: every path but the root SKILL.md, sorted, with digests. */
export async function fileDigests(files: ReadonlyMap<string, Uint8Array>, hash: Sha256 = sha256): Promise<ArchiveFileDigest[]> {
  const kept = [...files].filter(([path]) => path !== ROOT).sort(([a], [b]) => compareCodePoints(a, b));
  return Promise.all(kept.map(async ([path, bytes]) => ({ path, size: bytes.byteLength, sha256: toHex(await hash(bytes)) })));
}

/** The canonical listing of a file set (sorted here, whatever order it comes in). */
export function fileSetListing(files: readonly ArchiveFileDigest[]): string {
  const sorted = [...files].sort((a, b) => compareCodePoints(a.path, b.path));
  return '[' + sorted.map((f) => '[' + asciiJsonString(f.path) + ',' + String(f.size) + ',' + asciiJsonString('sha256:' + f.sha256.toLowerCase()) + ']').join(',') + ']';
}

/** SHA-256 (lowercase hex) of the canonical listing: the identity of a file set. */
export function fileSetDigest(files: readonly ArchiveFileDigest[]): string {
  // The listing is ASCII by construction.
  return toHex(sha256Sync(asciiBytes(fileSetListing(files))));
}
