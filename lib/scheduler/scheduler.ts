// One probe in flight per origin, a few origins at a time (PRODUCT.md §2.2, FORMATS.md §9.6).
//
// - Callers asking for an origin that is already being probed share that probe's promise.
// - A forced probe asked while one is running waits for it, then runs once more; every force
//   asked before that follow-up starts joins it. A force asked while the origin's probe is
//   still queued (not started) simply turns that probe into a forced one.
// - At most `maxConcurrent` origins (default 4) run at once; the rest wait in FIFO order.
// - A rejection from `run` reaches every caller sharing that probe and frees the slot.
import type { Clock, OriginReport } from '../types';

export interface SchedulerDeps {
  run: (origin: string, opts: { force: boolean }) => Promise<OriginReport>;
  clock: Clock;
  /** Origins probed at the same time (default 4, at least 1; NaN counts as 1). */
  maxConcurrent?: number;
}

export interface Scheduler {
  probe(origin: string, opts?: { force?: boolean }): Promise<OriginReport>;
  inFlight(origin: string): boolean;
  inFlightCount(): number;
  /** When the origin's current probe was asked for (by the injected clock), or null when idle. */
  inFlightSince(origin: string): number | null;
}

export const DEFAULT_MAX_CONCURRENT = 4;

interface Job {
  force: boolean;
  started: boolean;
  promise: Promise<OriginReport>;
}

interface Slot {
  current: Job;
  /** The follow-up forced probe, waiting for `current` to settle. */
  next: Job | null;
  since: number;
}

const ignore = (): void => undefined;

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const asked = deps.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
  const max = Number.isFinite(asked) ? Math.max(1, Math.floor(asked)) : asked === Infinity ? Infinity : 1;
  let active = 0;
  const waiting: Array<() => void> = [];
  const slots = new Map<string, Slot>();

  const acquire = (): Promise<void> => {
    if (active < max) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };

  /** A freed slot passes straight to the first waiter, if any. */
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  const makeJob = (origin: string, force: boolean, after: Promise<unknown> | null): Job => {
    const state = { force, started: false };
    const promise = (async (): Promise<OriginReport> => {
      if (after) await after.then(ignore, ignore);
      await acquire();
      try {
        state.started = true;
        return await deps.run(origin, { force: state.force });
      } finally {
        release();
      }
    })();
    return Object.assign(state, { promise });
  };

  const watch = (origin: string, slot: Slot): void => {
    const settle = (): void => {
      if (slots.get(origin) !== slot) return;
      if (slot.next) {
        slot.current = slot.next;
        slot.next = null;
        slot.since = deps.clock.now();
        slot.current.promise.then(settle, settle);
      } else {
        slots.delete(origin);
      }
    };
    slot.current.promise.then(settle, settle);
  };

  return {
    probe(origin: string, opts?: { force?: boolean }): Promise<OriginReport> {
      const force = opts?.force === true;
      const slot = slots.get(origin);
      if (!slot) {
        const fresh: Slot = { current: makeJob(origin, force, null), next: null, since: deps.clock.now() };
        slots.set(origin, fresh);
        watch(origin, fresh);
        return fresh.current.promise;
      }
      if (!force) return slot.current.promise;
      if (!slot.current.started) {
        slot.current.force = true;
        return slot.current.promise;
      }
      if (!slot.next) slot.next = makeJob(origin, true, slot.current.promise);
      return slot.next.promise;
    },
    inFlight: (origin) => slots.has(origin),
    inFlightCount: () => slots.size,
    inFlightSince: (origin) => slots.get(origin)?.since ?? null,
  };
}
