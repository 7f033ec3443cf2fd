// Writes that a crash cannot leave half done (docs/desktop.md): a file is written to a
// temporary name in the same folder, flushed to disk and renamed over the old one; a folder of
// files is built beside its final place and swapped in by rename. Temporary names start with
// `.skillpin-`, which no skill path may use (lib/desktop/paths.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
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

function writeFlushed(path: string, bytes: Uint8Array, mode: number): void {
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
 * Makes `parent/name` hold exactly `files` (paths `/`-separated, already checked): built in a
 * temporary folder beside it, then swapped in. A crash between the two renames leaves the
 * folder absent, never half written; leftovers are cleared by clearLeftovers().
 */
export function writeTreeAtomic(parent: string, name: string, files: readonly TreeFile[], modes: { dir: number; file: number }): void {
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
    swapIn(parent, staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function swapIn(parent: string, staging: string, target: string): void {
  const old = join(parent, tempName(OLD_PREFIX));
  let moved = false;
  try {
    renameSync(target, old);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  renameSync(staging, target);
  syncDir(parent);
  if (moved) rmSync(old, { recursive: true, force: true });
}

/** Removes the temporary and old folders a crashed write left in `dir`. */
export function clearLeftovers(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(TEMP_PREFIX) || name.startsWith(OLD_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
