import { describe, expect, it } from 'vitest';
import { createScheduler, DEFAULT_MAX_CONCURRENT } from '../../../lib/scheduler/scheduler';
import type { OriginReport } from '../../../lib/types';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function report(origin: string, tag: number): OriginReport {
  return {
    reportVersion: 1,
    origin,
    state: 'done',
    skippedBecause: null,
    startedAt: tag,
    finishedAt: tag,
    publishes: false,
    sources: [],
    key: { state: 'none', pinned: null, offered: null, conflicting: null },
    skills: [],
    diagnostics: [],
    summary: { total: 0, usable: 0, approved: 0, warnings: 0, byStatus: {} },
  };
}

interface RunCall {
  origin: string;
  force: boolean;
  d: Deferred<OriginReport>;
}

function controllable(): { run: (origin: string, opts: { force: boolean }) => Promise<OriginReport>; calls: RunCall[]; active: () => number } {
  const calls: RunCall[] = [];
  let active = 0;
  const run = (origin: string, opts: { force: boolean }): Promise<OriginReport> => {
    const d = deferred<OriginReport>();
    calls.push({ origin, force: opts.force, d });
    active++;
    return d.promise.finally(() => {
      active--;
    });
  };
  return { run, calls, active: () => active };
}

const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
const fakeClock = (start = 1_000): { now(): number; t: number } => ({
  t: start,
  now() {
    return this.t;
  },
});

describe('one probe per origin', () => {
  it('concurrent callers share one run and one result', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const a = s.probe('https://a.example');
    const b = s.probe('https://a.example');
    const d = s.probe('https://a.example', { force: false });
    expect(a).toBe(b);
    expect(a).toBe(d);
    await flush();
    expect(c.calls).toHaveLength(1);
    expect(c.calls[0]).toMatchObject({ origin: 'https://a.example', force: false });
    expect(s.inFlight('https://a.example')).toBe(true);
    expect(s.inFlightCount()).toBe(1);
    const r = report('https://a.example', 1);
    c.calls[0]!.d.resolve(r);
    expect(await a).toBe(r);
    expect(await b).toBe(r);
    expect(s.inFlight('https://a.example')).toBe(false);
    expect(s.inFlightCount()).toBe(0);
  });

  it('a probe after the previous one settled runs again', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const first = s.probe('https://a.example');
    await flush();
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await first;
    const second = s.probe('https://a.example');
    await flush();
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    expect((await second).startedAt).toBe(2);
  });

  it('different origins run independently', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const a = s.probe('https://a.example');
    const b = s.probe('https://b.example');
    expect(a).not.toBe(b);
    await flush();
    expect(c.calls.map((x) => x.origin)).toEqual(['https://a.example', 'https://b.example']);
    c.calls[1]!.d.resolve(report('https://b.example', 2));
    await b;
    expect(s.inFlight('https://a.example')).toBe(true);
    expect(s.inFlight('https://b.example')).toBe(false);
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await a;
  });
});

describe('forced probes', () => {
  it('a force while one runs waits for it, then runs once more with force', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const plain = s.probe('https://a.example');
    await flush();
    const forced = s.probe('https://a.example', { force: true });
    expect(forced).not.toBe(plain);
    await flush();
    expect(c.calls).toHaveLength(1);
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    expect((await plain).startedAt).toBe(1);
    await flush();
    expect(c.calls).toHaveLength(2);
    expect(c.calls[1]!.force).toBe(true);
    expect(s.inFlight('https://a.example')).toBe(true);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    expect((await forced).startedAt).toBe(2);
    expect(s.inFlight('https://a.example')).toBe(false);
  });

  it('several forces during one run coalesce into a single follow-up', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    void s.probe('https://a.example');
    await flush();
    const f1 = s.probe('https://a.example', { force: true });
    const f2 = s.probe('https://a.example', { force: true });
    const f3 = s.probe('https://a.example', { force: true });
    expect(f1).toBe(f2);
    expect(f2).toBe(f3);
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await flush();
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    await Promise.all([f1, f2, f3]);
    await flush();
    expect(c.calls).toHaveLength(2);
  });

  it('after the first run ends, plain callers join the follow-up', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    void s.probe('https://a.example');
    await flush();
    const forced = s.probe('https://a.example', { force: true });
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await flush();
    expect(s.probe('https://a.example')).toBe(forced);
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    await forced;
  });

  it('a force while the follow-up runs queues exactly one more', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    void s.probe('https://a.example');
    await flush();
    const f1 = s.probe('https://a.example', { force: true });
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await flush();
    expect(c.calls).toHaveLength(2);
    const f2 = s.probe('https://a.example', { force: true });
    expect(f2).not.toBe(f1);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    expect((await f1).startedAt).toBe(2);
    await flush();
    expect(c.calls).toHaveLength(3);
    expect(c.calls[2]!.force).toBe(true);
    c.calls[2]!.d.resolve(report('https://a.example', 3));
    expect((await f2).startedAt).toBe(3);
  });

  it('a force on a probe still waiting for a global slot makes that probe forced', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock(), maxConcurrent: 1 });
    void s.probe('https://a.example');
    const queued = s.probe('https://b.example');
    await flush();
    const forced = s.probe('https://b.example', { force: true });
    expect(forced).toBe(queued);
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await flush();
    expect(c.calls).toHaveLength(2);
    expect(c.calls[1]).toMatchObject({ origin: 'https://b.example', force: true });
    c.calls[1]!.d.resolve(report('https://b.example', 2));
    await forced;
    await flush();
    expect(c.calls).toHaveLength(2);
  });

  it('a first probe asked with force runs with force', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const p = s.probe('https://a.example', { force: true });
    await flush();
    expect(c.calls[0]!.force).toBe(true);
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await p;
  });
});

describe('errors', () => {
  it('a rejection reaches every waiter and frees the slot', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const a = s.probe('https://a.example');
    const b = s.probe('https://a.example');
    await flush();
    const boom = new Error('boom');
    c.calls[0]!.d.reject(boom);
    await expect(a).rejects.toBe(boom);
    await expect(b).rejects.toBe(boom);
    expect(s.inFlight('https://a.example')).toBe(false);
    expect(s.inFlightCount()).toBe(0);
    const again = s.probe('https://a.example');
    await flush();
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    expect((await again).startedAt).toBe(2);
  });

  it('a run that throws synchronously rejects and frees the slot', async () => {
    let n = 0;
    const s = createScheduler({
      run: (origin) => {
        n++;
        if (n === 1) throw new Error('sync');
        return Promise.resolve(report(origin, n));
      },
      clock: fakeClock(),
      maxConcurrent: 1,
    });
    await expect(s.probe('https://a.example')).rejects.toThrow('sync');
    expect(s.inFlight('https://a.example')).toBe(false);
    expect((await s.probe('https://b.example')).startedAt).toBe(2);
  });

  it('a failed run does not cancel the forced follow-up', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const plain = s.probe('https://a.example');
    await flush();
    const forced = s.probe('https://a.example', { force: true });
    c.calls[0]!.d.reject(new Error('first failed'));
    await expect(plain).rejects.toThrow('first failed');
    await flush();
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    expect((await forced).startedAt).toBe(2);
    expect(s.inFlight('https://a.example')).toBe(false);
  });

  it('a failed run gives its global slot to the next origin', async () => {
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock(), maxConcurrent: 1 });
    const a = s.probe('https://a.example');
    const b = s.probe('https://b.example');
    await flush();
    expect(c.calls).toHaveLength(1);
    c.calls[0]!.d.reject(new Error('x'));
    await expect(a).rejects.toThrow('x');
    await flush();
    expect(c.calls).toHaveLength(2);
    c.calls[1]!.d.resolve(report('https://b.example', 2));
    await b;
  });
});

describe('global concurrency', () => {
  it('runs at most 4 origins at once by default and starts the rest in FIFO order', async () => {
    expect(DEFAULT_MAX_CONCURRENT).toBe(4);
    const c = controllable();
    const s = createScheduler({ run: c.run, clock: fakeClock() });
    const origins = Array.from({ length: 10 }, (_, i) => `https://o${i}.example`);
    const all = origins.map((o) => s.probe(o));
    await flush();
    expect(c.calls.map((x) => x.origin)).toEqual(origins.slice(0, 4));
    expect(s.inFlightCount()).toBe(10);
    c.calls[2]!.d.resolve(report(origins[2]!, 2));
    await flush();
    expect(c.calls.map((x) => x.origin)).toEqual(origins.slice(0, 5));
    c.calls[0]!.d.resolve(report(origins[0]!, 0));
    c.calls[1]!.d.resolve(report(origins[1]!, 1));
    await flush();
    expect(c.calls.map((x) => x.origin)).toEqual(origins.slice(0, 7));
    for (let i = 0; i < 10; i++) {
      await flush();
      for (const call of c.calls) call.d.resolve(report(call.origin, 0));
    }
    await Promise.all(all);
    expect(c.calls).toHaveLength(10);
    expect(s.inFlightCount()).toBe(0);
  });

  it('a burst of 50 origins never has more than 4 runs open', async () => {
    let active = 0;
    let peak = 0;
    const s = createScheduler({
      run: async (origin) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 1));
        active--;
        return report(origin, 0);
      },
      clock: fakeClock(),
    });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => s.probe(`https://b${i}.example`)));
    expect(results).toHaveLength(50);
    expect(peak).toBe(4);
    expect(s.inFlightCount()).toBe(0);
  });

  it('honours a custom limit and never goes below one', async () => {
    for (const [limit, expected] of [
      [2, 2],
      [0, 1],
      [-3, 1],
      [Number.NaN, 1],
    ] as const) {
      const c = controllable();
      const s = createScheduler({ run: c.run, clock: fakeClock(), maxConcurrent: limit });
      const all = [0, 1, 2, 3].map((i) => s.probe(`https://c${i}.example`));
      await flush();
      expect(c.calls.length, String(limit)).toBe(expected);
      for (let i = 0; i < 5; i++) {
        for (const call of c.calls) call.d.resolve(report(call.origin, 0));
        await flush();
      }
      await Promise.all(all);
    }
  });
});

describe('inFlightSince', () => {
  it('tells when the current probe was asked for, by the injected clock', async () => {
    const clock = fakeClock(5_000);
    const c = controllable();
    const s = createScheduler({ run: c.run, clock });
    expect(s.inFlightSince('https://a.example')).toBeNull();
    void s.probe('https://a.example');
    clock.t = 6_000;
    void s.probe('https://a.example');
    expect(s.inFlightSince('https://a.example')).toBe(5_000);
    await flush();
    const forced = s.probe('https://a.example', { force: true });
    clock.t = 7_000;
    c.calls[0]!.d.resolve(report('https://a.example', 1));
    await flush();
    expect(s.inFlightSince('https://a.example')).toBe(7_000);
    c.calls[1]!.d.resolve(report('https://a.example', 2));
    await forced;
    expect(s.inFlightSince('https://a.example')).toBeNull();
  });
});
