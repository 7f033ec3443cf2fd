// The request guard's listener sets (lib/net/listen-sets.ts): each host's set goes a while after its
// own last request, however busy other hosts are. Before, one quiet timer for all of them kept every
// host's set while any host had requests: a publishing site checked a minute ago, revisited while the
// user browsed elsewhere, had every request of its pages sent to the worker (the page-load bench's
// heavy publishing revisit, 1.30× slower).
import { describe, expect, it } from 'vitest';
import { BROAD, ListenSets } from '../../../lib/net/listen-sets';

function world(refuse: string[] = []) {
  let now = 0;
  const timers: { at: number; fn: () => void; live: boolean }[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  const sets = new ListenSets({
    add: (p) => {
      if (refuse.includes(p)) throw new Error('Invalid url pattern');
      added.push(p);
      return () => removed.push(p);
    },
    lingerMs: 15_000,
    timers: {
      set: (fn, ms) => {
        const t = { at: now + ms, fn, live: true };
        timers.push(t);
        return t;
      },
      clear: (h) => {
        if (h) (h as { live: boolean }).live = false;
      },
    },
  });
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((x) => x.live && x.at <= now)) {
      t.live = false;
      t.fn();
    }
  };
  return { sets, added, removed, advance };
}

describe('the request guard keeps each host listened to only around its own requests', () => {
  it("a host's set goes 15 s after its last request while another host stays busy", () => {
    const w = world();
    const a = w.sets.use(['http://a.example/*']);
    expect(a.added).toBe(true);
    a.done();
    // Another host keeps requesting every few seconds for a minute.
    for (let i = 0; i < 20; i++) {
      w.sets.use(['http://b.example/*']).done();
      w.advance(3_000);
    }
    expect(w.removed).toContain('http://a.example/*');
    expect(w.sets.patterns()).toEqual(['http://b.example/*']);
    w.advance(15_000);
    expect(w.sets.patterns()).toEqual([]);
  });

  it('a set in use is never removed, and a use after the linger adds it again', () => {
    const w = world();
    const a = w.sets.use(['http://a.example/*']);
    w.advance(60_000);
    expect(w.removed).toEqual([]);
    const again = w.sets.use(['http://a.example/*']);
    expect(again.added).toBe(false);
    a.done();
    w.advance(20_000);
    expect(w.removed).toEqual([]);
    again.done();
    again.done();
    w.advance(14_999);
    expect(w.removed).toEqual([]);
    w.advance(1);
    expect(w.removed).toEqual(['http://a.example/*']);
    expect(w.sets.use(['http://a.example/*']).added).toBe(true);
  });

  it('a pattern the browser refuses is watched through the broad set, never not at all, and that goes too', () => {
    const w = world(['http://[::1]/*']);
    const u = w.sets.use(['http://[::1]/*']);
    expect(u.added).toBe(true);
    expect(w.added).toEqual([BROAD]);
    expect(w.sets.patterns()).toEqual([BROAD]);
    u.done();
    w.advance(15_000);
    expect(w.removed).toEqual([BROAD]);
  });
});
