// Path segments that name version-control or tool metadata (a `.git/config` with
// `core.fsmonitor` runs a command at the next `git status`, which shell prompts and editors run
// unasked). Judged the way git guards its own paths: `.git` in any case, its NTFS short name `git~1`,
// with the code points HFS+ ignores removed, and trailing dots and spaces that Windows drops; and the
// other version-control systems' folders (`.hg`, `.svn`, `.jj`, `.bzr`, `_darcs`, `CVS`).

/** Code points HFS+ ignores when it compares names (git's is_hfs_dotgit list), and the BOM. */
function isHfsIgnorable(cp: number): boolean {
  return (cp >= 0x200c && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x206a && cp <= 0x206f) || cp === 0xfeff;
}

const METADATA = new Set(['.git', 'git~1', '.hg', 'hg~1', '.svn', 'svn~1', '.jj', '.bzr', '_darcs', 'cvs', '.gitmodules']);

/** The segment as a case-insensitive file system would compare it: ignorable code points and trailing dots/spaces dropped, lower case. */
function comparableSegment(segment: string): string {
  const kept = [...segment].filter((ch) => !isHfsIgnorable(ch.codePointAt(0) as number));
  return kept
    .join('')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

/** The metadata name (`.git`, `.hg`…) the first such segment of a path stands for, or null. */
export function toolMetadataIn(path: string): string | null {
  for (const segment of path.split('/')) {
    const c = comparableSegment(segment);
    if (METADATA.has(c)) return c;
    // NTFS alternate data streams: `.git::$INDEX_ALLOCATION` is the folder `.git`.
    const colon = c.indexOf(':');
    if (colon > 0 && METADATA.has(c.slice(0, colon))) return c.slice(0, colon);
  }
  return null;
}
