// One writer at a time (docs/desktop.md): each browser starts its own host process, so the
// writes of a sync or a put hold `<mirror>/.lock`, a file naming the process that holds it. A
// lock whose process is gone is taken over.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const WAIT_STEP_MS = 50;
const WAIT_STEPS = 200;

function alive(pid: number): boolean {
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

function tryTake(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder = Number.NaN;
  try {
    holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    // Removed meanwhile: try again.
  }
  if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return false;
  rmSync(file, { force: true });
  return false;
}

/** Runs `fn` holding the mirror's lock; throws `busy` when another process keeps it for about ten seconds. */
export function withLock<T>(mirrorRoot: string, fn: () => T): T {
  mkdirSync(mirrorRoot, { recursive: true, mode: 0o700 });
  const file = join(mirrorRoot, '.lock');
  let taken = false;
  for (let i = 0; i < WAIT_STEPS && !taken; i++) {
    taken = tryTake(file);
    if (!taken) sleep(WAIT_STEP_MS);
  }
  if (!taken) throw Object.assign(new Error('Another Skillpin host process is writing the mirror.'), { code: 'busy' });
  try {
    return fn();
  } finally {
    rmSync(file, { force: true });
  }
}
