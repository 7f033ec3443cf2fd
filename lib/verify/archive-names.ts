// Entry-name rules shared by the zip and tar readers (FORMATS.md §6.4): one function checks a single
// name, one class watches the whole set of names for duplicates and normalization collisions and
// counts the entries against the caps.
import type { ArchiveLimits } from './archive-limits';

export type ArchiveFailure = { ok: false; status: 'invalid' | 'too-large' | 'unsupported'; code: string; message: string };

export function invalid(code: string, message: string): ArchiveFailure {
  return { ok: false, status: 'invalid', code, message };
}

export function tooLarge(code: string, message: string): ArchiveFailure {
  return { ok: false, status: 'too-large', code, message };
}

export function unsupported(code: string, message: string): ArchiveFailure {
  return { ok: false, status: 'unsupported', code, message };
}

/** Quote a name for a message without letting control characters through. */
export function showName(name: string): string {
  const shown = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(shown.length > 200 ? `${shown.slice(0, 200)}…` : shown);
}

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A drive prefix such as `C:` (with either separator, or none). */
const DRIVE = /^[A-Za-z]:/;

export type NameCheck = { ok: true; path: string } | ArchiveFailure;

/** The path an archive names its own root by: `./` (or `.`), which `tar -C dir .` writes first. */
export const ARCHIVE_ROOT = '';

/**
 * Check one entry name as stored in the archive. Directories may end with a single `/`, which is
 * removed from the returned path; every other rule applies to files and directories alike.
 * `what` names the field in messages (`name`, `PAX path`, `GNU long name`). With `archive` (the tar
 * and zip readers), a single leading `./` is the same path without it (`tar -czf x.tar.gz -C dir .`
 * writes `./SKILL.md`), and the directory `./` itself is the root (ARCHIVE_ROOT, an empty path).
 */
export function checkEntryName(raw: string, isDirectory: boolean, what = 'name', archive = false): NameCheck {
  if (archive && raw.startsWith('./')) {
    if (isDirectory && raw === './') return { ok: true, path: ARCHIVE_ROOT };
    if (raw.length > 2) return checkEntryName(raw.slice(2), isDirectory, what);
  }
  if (archive && isDirectory && raw === '.') return { ok: true, path: ARCHIVE_ROOT };
  if (raw.length === 0) return invalid('archive-path-empty', `An entry has an empty ${what}.`);
  if (CONTROL.test(raw)) return invalid('archive-path-control', `The ${what} ${showName(raw)} contains NUL or a control character.`);
  if (raw.startsWith('\\\\') || raw.startsWith('//')) return invalid('archive-path-absolute', `The ${what} ${showName(raw)} is a network (UNC) path.`);
  if (DRIVE.test(raw)) return invalid('archive-path-absolute', `The ${what} ${showName(raw)} starts with a drive letter.`);
  if (raw.includes('\\')) return invalid('archive-path-backslash', `The ${what} ${showName(raw)} contains a backslash.`);
  if (raw.startsWith('/')) return invalid('archive-path-absolute', `The ${what} ${showName(raw)} is an absolute path.`);
  const path = isDirectory && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  for (const segment of path.split('/')) {
    if (segment === '..') return invalid('archive-path-traversal', `The ${what} ${showName(raw)} contains a ".." segment.`);
    if (segment === '' || segment === '.') return invalid('archive-path-segment', `The ${what} ${showName(raw)} contains an empty or "." segment.`);
  }
  return { ok: true, path };
}

/**
 * The key two names collide on: Unicode NFC, then full case folding (upper then lower case maps
 * `ß` to `ss` and the final sigma to sigma, as case folding does), then NFC again.
 */
export function collisionKey(path: string): string {
  return path.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

interface Seen {
  path: string;
  type: 'file' | 'directory';
  /** Only implied by a deeper entry, never listed itself. */
  implied: boolean;
}

/**
 * Records every accepted path and refuses exact duplicates, names equal after NFC and case
 * folding (`SKILL.md` vs `Skill.md`, NFC vs NFD), and a name used both as a file and as a
 * directory (a file `a` next to `a/b`). Parent directories of every entry are taken into account
 * even when the archive does not list them.
 */
export class NameRegistry {
  private readonly seen = new Map<string, Seen>();
  private entries = 0;
  private files = 0;

  /** Records an accepted entry (as `add` does), then holds the archive to the entry and file caps. */
  admit(path: string, type: 'file' | 'directory', limits: ArchiveLimits): ArchiveFailure | null {
    const clash = this.add(path, type);
    if (clash) return clash;
    if (++this.entries > limits.maxEntries) return tooLarge('archive-too-many-entries', `The archive has more than ${limits.maxEntries} entries.`);
    if (type === 'file' && ++this.files > limits.maxFiles) return tooLarge('archive-too-many-files', `The archive has more than ${limits.maxFiles} files.`);
    return null;
  }

  add(path: string, type: 'file' | 'directory'): ArchiveFailure | null {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      const failure = this.record(parent, 'directory', true);
      if (failure) return failure;
    }
    return this.record(path, type, false);
  }

  private record(path: string, type: 'file' | 'directory', implied: boolean): ArchiveFailure | null {
    const key = collisionKey(path);
    const before = this.seen.get(key);
    if (!before) {
      this.seen.set(key, { path, type, implied });
      return null;
    }
    if (before.path !== path) {
      return invalid('archive-name-collision', `The names ${showName(before.path)} and ${showName(path)} are the same after Unicode normalization and case folding.`);
    }
    if (before.type !== type) return invalid('archive-name-collision', `The name ${showName(path)} is used both as a file and as a directory.`);
    if (!implied && !before.implied) return invalid('archive-duplicate-name', `The name ${showName(path)} appears more than once.`);
    if (!implied) before.implied = false;
    return null;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode a stored name as UTF-8; null when the bytes are not valid UTF-8. */
export function decodeName(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
