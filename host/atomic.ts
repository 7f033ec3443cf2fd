// Writes that a crash cannot leave half done (docs/desktop.md): a file is written to a
// temporary name in the same folder, flushed to disk and renamed over the old one; a folder of
// files is built beside its final place and swapped in by rename. Temporary names start with
// `.skillpin-`, which no skill path may use (lib/desktop/protocol/paths.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const TEMP_PREFIX = '.skillpin-tmp-';
export const OLD_PREFIX = '.skillpin-old-';

const tempName = (prefix: string): string => `${prefix}${randomBytes(8).toString('hex')}`;

function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to open a folder for fsync; the rename is still atomic there.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Writes a new file (it must not exist yet) and flushes it to disk. */
export function writeFlushed(path: string, bytes: Uint8Array, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes one file atomically (its folder is created when missing). */
export function writeFileAtomic(path: string, bytes: Uint8Array, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, tempName(TEMP_PREFIX));
  try {
    writeFlushed(temp, bytes, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dir);
}

export interface TreeFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * How the new folder takes its place: `absent` — nothing may be there (a folder someone made
 * meanwhile, even an empty one, is left alone and the write fails with `name-taken`); a
 * function — what is there is moved aside and the function judges the moved folder: true
 * deletes it, false puts it back and the write fails with `name-taken`.
 */
export type Placement = 'absent' | ((movedAside: string) => boolean);

export const nameTaken = (target: string): Error => Object.assign(new Error(`${target} is not the folder Skillpin expected there; it was left as it is.`), { code: 'name-taken' });

/** Tests only: called at the named moments of a placement, to act as a user would in between. */
export const testHooks: { beforePlace?: (target: string) => void; beforeAside?: (dir: string) => void } = {};

/**
 * Makes `parent/name` hold exactly `files` (paths `/`-separated, already checked): built in a
 * temporary folder beside it, then put in place (see Placement; by default whatever is there is
 * replaced, which only the host's own folders may ask for). A crash leaves the folder whole,
 * absent or the old one, never half written; leftovers are cleared by clearLeftovers().
 */
export function writeTreeAtomic(parent: string, name: string, files: readonly TreeFile[], modes: { dir: number; file: number }, placement: Placement = () => true): void {
  mkdirSync(parent, { recursive: true, mode: modes.dir });
  const staging = join(parent, tempName(TEMP_PREFIX));
  const target = join(parent, name);
  try {
    mkdirSync(staging, { mode: modes.dir });
    const dirs = new Set<string>([staging]);
    for (const f of files) {
      const path = join(staging, ...f.path.split('/'));
      const dir = dirname(path);
      if (!dirs.has(dir)) {
        mkdirSync(dir, { recursive: true, mode: modes.dir });
        dirs.add(dir);
      }
      writeFlushed(path, f.bytes, modes.file);
    }
    for (const dir of dirs) syncDir(dir);
    if (placement === 'absent') placeNew(staging, target);
    else swapIn(parent, staging, target, placement);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Renames `staging` to `target`, which must not exist. The target is reserved first with mkdir
 * (which fails when anything is there); the rename then replaces only that empty folder of ours,
 * and fails (leaving what is there) when someone put a file into it meanwhile.
 */
export function placeNew(staging: string, target: string): void {
  try {
    mkdirSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw nameTaken(target);
    throw error;
  }
  testHooks.beforePlace?.(target);
  try {
    renameSync(staging, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Windows does not rename onto a folder: give up the reservation (only while it is still empty) and rename again.
    if (process.platform === 'win32' && (code === 'EPERM' || code === 'EEXIST' || code === 'EACCES')) {
      try {
        rmdirSync(target);
      } catch {
        throw nameTaken(target);
      }
      renameSync(staging, target);
    } else if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw nameTaken(target);
    else {
      removeIfEmpty(target);
      throw error;
    }
  }
  syncDir(dirname(target));
}

/**
 * Moves `dir` aside and gives back the moved folder when `judge` says it is the one expected;
 * otherwise moves it back and gives `put-back`. Null when nothing was there.
 */
export function moveAside(dir: string, judge: (movedAside: string) => boolean): string | null | 'put-back' {
  testHooks.beforeAside?.(dir);
  const aside = join(dirname(dir), tempName(OLD_PREFIX));
  try {
    renameSync(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (judge(aside)) return aside;
  // Put back in its place; when the place was taken meanwhile, under a visible name beside it.
  try {
    placeNew(aside, dir);
  } catch {
    renameSync(aside, `${dir}-${randomBytes(4).toString('hex')}`);
  }
  return 'put-back';
}

function swapIn(parent: string, staging: string, target: string, judge: (movedAside: string) => boolean): void {
  const aside = moveAside(target, judge);
  if (aside === 'put-back') throw nameTaken(target);
  try {
    placeNew(staging, target);
  } finally {
    if (aside !== null) rmSync(aside, { recursive: true, force: true });
  }
  syncDir(parent);
}

/** The JSON a file holds, or null when it cannot be read or parsed. */
export function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** Removes `dir` when it is an empty folder; anything else (a folder with files, nothing) is left as it is. */
export function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty, not a folder, or already gone.
  }
}

/** The names in folder `dir`; none when it cannot be read (it is not there, or not a folder). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Removes the temporary and old folders a crashed write left in `dir`. */
export function clearLeftovers(dir: string): void {
  for (const name of namesIn(dir)) {
    if (name.startsWith(TEMP_PREFIX) || name.startsWith(OLD_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
