// The request watcher (lib/net/request-guard.ts) fed recorded webRequest event sequences: the
// facts it files (hops, the reported Location, each response's address, the end) are the same in
// whatever order the events arrive, only the extension's own requests count, and every watch
// releases what it prepared.
import { describe, expect, it } from 'vitest';
import { createRequestWatcher, type RequestDetails, type RequestWatcher, type WatchedChain } from '../../../lib/net/request-guard';
import { EXT_BASE } from './browser-sim';

type Event = ['request' | 'redirect' | 'ended', RequestDetails];

const OWN = EXT_BASE.slice(0, -1);
const A = 'https://pub.example/skills/a/SKILL.md';
const B = 'https://pub.example/skills/b/SKILL.md';
const d = (requestId: string, url: string, extra: Partial<RequestDetails> = {}): RequestDetails => ({ requestId, url, tabId: -1, initiator: OWN, ...extra });

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

function feed(w: RequestWatcher, events: Event[]): void {
  for (const [kind, details] of events) {
    if (kind === 'request') void w.onBeforeRequest(details);
    else if (kind === 'redirect') w.onBeforeRedirect(details);
    else w.onEnded(details);
  }
}

const rules = { origin: 'https://pub.example', check: () => null, onRefused: () => undefined };

async function settledAfter(events: Event[], until?: (c: WatchedChain) => boolean): Promise<WatchedChain | null> {
  const w = createRequestWatcher({ extensionBase: EXT_BASE, blocking: false, manualRedirects: true, waitMs: 100 });
  const watch = await w.guard.watch(A, rules);
  const result = watch.settled(undefined, until);
  feed(w, events);
  const chain = await result;
  watch.close();
  expect(w.open()).toBe(0);
  return chain;
}

describe('request watcher: recorded event sequences (Chrome)', () => {
  it('a manual redirect: the reported Location and the address that answered, in every order', async () => {
    const events: Event[] = [
      ['request', d('7', A)],
      ['redirect', d('7', A, { ip: '127.0.0.1', redirectUrl: B })],
      ['ended', d('7', A, { ip: '127.0.0.1' })],
    ];
    for (const order of permutations(events)) {
      const chain = await settledAfter(order, (c) => c.redirectTo !== null);
      expect(chain, JSON.stringify(order.map((e) => e[0]))).toMatchObject({ urls: [A], redirectTo: B, addresses: { [A]: '127.0.0.1' }, refused: null });
    }
  });

  it('a response: its address, whether onResponseStarted, onCompleted or the request comes first', async () => {
    const events: Event[] = [
      ['request', d('9', A)],
      ['ended', d('9', A, { ip: '93.184.216.34' })],
      ['ended', d('9', A, { ip: '93.184.216.34' })],
    ];
    for (const order of permutations(events)) {
      const chain = await settledAfter(order, (c) => c.addresses[A] !== undefined);
      expect(chain).toMatchObject({ urls: [A], ended: true, redirectTo: null, addresses: { [A]: '93.184.216.34' } });
    }
  });

  it('an end without an address leaves none: the caller waits, then fails closed', async () => {
    const chain = await settledAfter(
      [
        ['request', d('3', A)],
        ['ended', d('3', A)],
      ],
      (c) => c.addresses[A] !== undefined,
    );
    expect(chain).toMatchObject({ urls: [A], ended: true, addresses: {} });
  });

  it("requests of pages and tabs are not the extension's: never filed, even for the same URL", async () => {
    const chain = await settledAfter([
      ['request', d('1', A, { initiator: 'http://localhost:3000' })],
      ['ended', d('1', A, { initiator: 'http://localhost:3000', ip: '127.0.0.1' })],
      ['request', d('2', A, { tabId: 4 })],
      ['ended', d('2', A, { tabId: 4, ip: '127.0.0.1' })],
    ]);
    expect(chain).toBeNull();
  });

  it('two watches for one URL get one request each, in the order they were made', async () => {
    const w = createRequestWatcher({ extensionBase: EXT_BASE, blocking: false, manualRedirects: true, waitMs: 100 });
    const first = await w.guard.watch(A, rules);
    const second = await w.guard.watch(A, rules);
    feed(w, [
      ['request', d('11', A)],
      ['request', d('12', A)],
      ['ended', d('12', A, { ip: '10.0.0.2' })],
      ['ended', d('11', A, { ip: '10.0.0.1' })],
    ]);
    expect((await first.settled())?.addresses[A]).toBe('10.0.0.1');
    expect((await second.settled())?.addresses[A]).toBe('10.0.0.2');
    first.close();
    second.close();
    expect(w.open()).toBe(0);
  });

  it('every watch releases what it prepared exactly once, and a closed watch settles at once', async () => {
    const released: string[] = [];
    const w = createRequestWatcher({
      extensionBase: EXT_BASE,
      blocking: false,
      manualRedirects: true,
      waitMs: 10_000,
      prepare: async (u) => () => released.push(u.href),
    });
    const watch = await w.guard.watch(A, rules);
    const pending = watch.settled();
    watch.close();
    watch.close();
    expect(await pending).toBeNull();
    expect(released).toEqual([A]);
    expect(w.open()).toBe(0);
  });
});

describe('request watcher: a followed chain (Firefox)', () => {
  it('each hop is checked as it is requested; a refused hop is cancelled and stops the chain', async () => {
    let stopped = 0;
    const w = createRequestWatcher({ extensionBase: EXT_BASE, blocking: true, waitMs: 100 });
    const watch = await w.guard.watch(A, { origin: 'https://pub.example', check: (chain) => (chain.at(-1)?.startsWith('http://127.') ? 'url-private-target' : null), onRefused: () => (stopped += 1) });
    const base = { originUrl: `${EXT_BASE}background.html` };
    expect(w.onBeforeRequest({ ...d('5', A), initiator: undefined, ...base })).toEqual({ cancel: false });
    w.onBeforeRedirect({ ...d('5', A, { redirectUrl: B, ip: '93.184.216.34' }), initiator: undefined, ...base });
    expect(w.onBeforeRequest({ ...d('5', B), initiator: undefined, ...base })).toEqual({ cancel: false });
    expect(w.onBeforeRequest({ ...d('5', 'http://127.0.0.1/x'), initiator: undefined, ...base })).toEqual({ cancel: true });
    const chain = await watch.settled();
    expect(chain).toMatchObject({ urls: [A, B, 'http://127.0.0.1/x'], refused: { url: 'http://127.0.0.1/x', reason: 'url-private-target' }, redirectTo: B });
    expect(stopped).toBe(1);
    watch.close();
  });
});
