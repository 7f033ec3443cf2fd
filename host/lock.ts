// One writer at a time (docs/desktop.md): each browser starts its own host process, and
// uninstall-host runs beside them, so every write of the mirror or the agent folders holds
// `<mirror>/.lock`, a file naming the process that holds it and a token of this hold.
//
// Taking it: the token is written to a temporary file first and then linked into place, so the
// lock appears whole or not at all (a reader never sees an empty lock). A lock whose process is
// gone is renamed aside, checked again (still the dead one's?) and only then deleted; had another
// process taken it over meanwhile, it is put back. Releasing removes the lock only while it still
// holds this process's own token.
import { randomBytes } from 'node:crypto';
import { appendFileSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { namesIn, writeFlushed } from './atomic';

const WAIT_STEP_MS = 50;
const WAIT_STEPS = 200;

/** Locks this process holds now (a nested withLock on the same mirror runs inside the outer hold). */
const held = new Map<string, string>();

/** A process with this id runs (an id that is no positive integer names none). */
function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const readOr = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** Writes `text` to a fresh temporary file beside the lock and links it to `file`: true when this made the lock. */
function createWhole(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFlushed(temp, Buffer.from(text), 0o600);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Renames the lock to a fresh name beside it (`kind` says why); null when there is none to move. */
function setAside(file: string, kind: string): string | null {
  const aside = `${file}.${kind}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, aside);
    return aside;
  } catch {
    return null;
  }
}

/** Links a lock set aside back into place, unless another one is there now. */
function putBack(aside: string, file: string): void {
  try {
    linkSync(aside, file);
  } catch {
    // Another process holds a lock now; the one put aside finds its lock gone at release and writes nothing more.
  }
}

/** Takes over a lock whose process is gone: renamed aside, checked again, deleted, or put back when it changed hands. */
function clearStale(file: string, seen: string): void {
  const aside = setAside(file, 'stale');
  if (aside === null) return;
  // Another process took the lock between our read and our rename: give it back.
  if (readOr(aside) !== seen) putBack(aside, file);
  rmSync(aside, { force: true });
}

function tryTake(file: string, token: string): boolean {
  if (createWhole(file, token)) return true;
  const holder = readOr(file);
  if (holder === null) return false;
  const pid = Number.parseInt(holder.split(' ')[0] ?? '', 10);
  if (alive(pid)) return false;
  clearStale(file, holder);
  return false;
}

/** Removes the lock only while it holds our token. */
function release(file: string, token: string): void {
  const aside = setAside(file, 'release');
  if (aside === null) return;
  if (readOr(aside) !== token) putBack(aside, file);
  try {
    unlinkSync(aside);
  } catch {
    // Already gone.
  }
}

/** Removes the temporary and set-aside lock files of processes that are gone (a crash while taking or releasing). */
function clearLockLeftovers(mirrorRoot: string): void {
  for (const name of namesIn(mirrorRoot).filter((n) => n.startsWith('.lock.'))) {
    const pid = Number.parseInt(name.split('.').find((part) => /^\d+$/.test(part)) ?? '', 10);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(mirrorRoot, name), { force: true });
  }
}

/** Tests only: SKILLPIN_TEST_LOCK_LOG names a file that gets a line when a hold starts and ends. */
function logHold(what: 'enter' | 'leave'): void {
  const log = process.env.SKILLPIN_TEST_LOCK_LOG;
  if (log) appendFileSync(log, `${what} ${process.pid} ${process.hrtime.bigint()} ${Date.now()}\n`);
}

/** Runs `fn` holding the mirror's lock; throws `busy` when another process keeps it for about ten seconds. */
export function withLock<T>(mirrorRoot: string, fn: () => T): T {
  const file = join(mirrorRoot, '.lock');
  if (held.has(file)) return fn();
  const token = `${process.pid} ${randomBytes(12).toString('hex')}`;
  let taken = false;
  for (let i = 0; i < WAIT_STEPS && !taken; i++) {
    mkdirSync(mirrorRoot, { recursive: true, mode: 0o700 });
    taken = tryTake(file, token);
    if (!taken) sleep(WAIT_STEP_MS + Math.floor(Math.random() * 20));
  }
  if (!taken) throw Object.assign(new Error('Another Skillpin host process is writing the mirror.'), { code: 'busy' });
  held.set(file, token);
  logHold('enter');
  clearLockLeftovers(mirrorRoot);
  try {
    return fn();
  } finally {
    logHold('leave');
    held.delete(file);
    release(file, token);
  }
}
