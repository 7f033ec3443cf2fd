// The load gate (lib/scheduler/load-gate.ts): a navigation's probe waits for the page's load
// event, or the cap; a newer navigation or a closed tab releases it without a probe.
import { describe, expect, it } from 'vitest';
import { createLoadGate, type GateEvent } from '../../../lib/scheduler/load-gate';

function fakeTimers() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimer: (fn: () => void) => {
      timers.set(next, fn);
      return next++;
    },
    clearTimer: (h: unknown) => void timers.delete(h as number),
    fireAll: () => {
      for (const [id, fn] of [...timers]) {
        timers.delete(id);
        fn();
      }
    },
    count: () => timers.size,
  };
}

describe('load gate', () => {
  it('opens on the load event of the same tab and origin, then holds nothing', async () => {
    const t = fakeTimers();
    const events: GateEvent[] = [];
    const gate = createLoadGate({ capMs: 5000, ...t, onEvent: (e) => events.push(e) });
    let opened: boolean | null = null;
    const wait = gate.afterLoad(3, 'https://a.example/page').then((v) => (opened = v));
    gate.loaded(4, 'https://a.example/page');
    gate.loaded(3, 'https://b.example/');
    await Promise.resolve();
    expect(opened).toBeNull();
    gate.loaded(3, 'https://a.example/page#after-pushstate');
    await wait;
    expect(opened).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['commit', 'load']);
    expect(gate.waiting()).toBe(0);
    expect(t.count()).toBe(0);
  });

  it('a page that loaded before the probe asked to wait opens at once (the commit is noted first)', async () => {
    const t = fakeTimers();
    const gate = createLoadGate({ capMs: 5000, ...t });
    gate.committed(2, 'https://a.example/');
    gate.loaded(2, 'https://a.example/');
    expect(await gate.afterLoad(2, 'https://a.example/')).toBe(true);
    expect(gate.waiting()).toBe(0);
  });

  it('a probe that asks after its tab moved on: probed when that page had loaded, not when it was left loading', async () => {
    const t = fakeTimers();
    const gate = createLoadGate({ capMs: 5000, ...t });
    gate.committed(2, 'https://a.example/');
    gate.loaded(2, 'https://a.example/');
    gate.committed(2, 'https://b.example/');
    gate.committed(2, 'https://c.example/');
    expect(await gate.afterLoad(2, 'https://a.example/')).toBe(true);
    expect(await gate.afterLoad(2, 'https://b.example/')).toBe(false);
    // The late question changed nothing for the page the tab shows now.
    gate.loaded(2, 'https://c.example/');
    expect(await gate.afterLoad(2, 'https://c.example/')).toBe(true);
  });

  it('opens after the cap for a page that never finishes loading', async () => {
    const t = fakeTimers();
    const gate = createLoadGate({ capMs: 5000, ...t });
    const wait = gate.afterLoad(1, 'https://a.example/');
    t.fireAll();
    expect(await wait).toBe(true);
  });

  it('a newer navigation in the tab or the tab closing releases the wait without a probe', async () => {
    const t = fakeTimers();
    const events: GateEvent[] = [];
    const gate = createLoadGate({ capMs: 5000, ...t, onEvent: (e) => events.push(e) });
    const first = gate.afterLoad(1, 'https://a.example/');
    gate.committed(1, 'https://b.example/');
    const second = gate.afterLoad(1, 'https://b.example/');
    expect(await first).toBe(false);
    gate.closed(1);
    expect(await second).toBe(false);
    expect(events.map((e) => e.kind)).toEqual(['commit', 'superseded', 'commit', 'closed']);
    expect(t.count()).toBe(0);
  });
});

describe('a tab closed before its probe asked to wait', () => {
  it('gets no probe (not one after the cap), and a new navigation in it is waited for again', async () => {
    const gate = createLoadGate({ capMs: 10, setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) });
    gate.committed(3, 'https://a.example/');
    gate.closed(3);
    expect(await gate.afterLoad(3, 'https://a.example/')).toBe(false);
    // Closed before it even committed here (the probe's checks ran first).
    gate.closed(4);
    expect(await gate.afterLoad(4, 'https://b.example/')).toBe(false);
    gate.committed(4, 'https://b.example/next');
    const waiting = gate.afterLoad(4, 'https://b.example/next');
    gate.loaded(4, 'https://b.example/next');
    expect(await waiting).toBe(true);
  });
});
