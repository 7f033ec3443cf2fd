// fetchBounded in a browser: the browser follows the chain, the request watcher sees each hop
// (lib/net/request-guard.ts), and the verdict is the one node reaches hop by hop (FORMATS.md §9.2–9.3).
import { describe, expect, it } from 'vitest';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import { createRequestWatcher, UNRESOLVED } from '../../../lib/net/request-guard';
import { createPermits } from '../../../lib/net/dnr-rules';
import type { Clock, DocumentKind } from '../../../lib/types';
import type { FetchResult } from '../../../lib/net/fetch-result';
import { EXT_BASE, EXT_ID, simBrowser, simRules, type Route } from './browser-sim';

const clock: Clock = { now: () => 1_000 };
const PUB = 'https://pub.example';
const body = (name = 'x'): Route => ({ body: `---\nname: ${name}\n---\nBody.\n` });
const to = (url: string): Route => ({ to: url });

type Mode = 'chrome' | 'firefox';
const MODES: Mode[] = ['chrome', 'firefox'];

interface RunOptions {
  origin?: string;
  vet?: (origin: string, u: URL) => Promise<string | null>;
  silent?: boolean;
  /** Chrome: the address each host answers from (default: a public one). */
  addressOf?: (host: string) => string | undefined;
  /** Chrome: webRequest's events arrive after the fetch has settled, in reverse order. */
  late?: boolean;
}

/**
 * One fetch through the real watcher. Chrome: the real permits over simulated session rules (the
 * block rules installed first, as the background does), manual redirects reported with their
 * Location and address. Firefox: the browser follows, the blocking listener may cancel.
 */
async function run(mode: Mode, routes: Record<string, Route>, url: string, kind: DocumentKind, opts: RunOptions = {}): Promise<{ r: FetchResult; served: string[]; open: number; permits: string[] }> {
  const origin = opts.origin ?? PUB;
  if (mode === 'firefox') {
    const watcher = createRequestWatcher({ extensionBase: EXT_BASE, blocking: true, vet: opts.vet, waitMs: 200 });
    const sim = simBrowser(routes, watcher, { silent: opts.silent });
    const r = await fetchBounded(sim.fetch, url, { kind, origin, clock, guard: watcher.guard });
    return { r, served: sim.served, open: watcher.open(), permits: [] };
  }
  const rules = simRules();
  const permits = createPermits((c) => rules.update(c), { extensionId: EXT_ID });
  await permits.install([]);
  const watcher = createRequestWatcher({ extensionBase: EXT_BASE, blocking: false, manualRedirects: true, waitMs: 200, prepare: (u) => permits.acquire(u) });
  const addressOf = opts.addressOf ?? ((): string => '93.184.216.34');
  const sim = simBrowser(routes, watcher, { silent: opts.silent, chrome: { rules, addressOf, late: opts.late } });
  const r = await fetchBounded(sim.fetch, url, { kind, origin, clock, guard: watcher.guard });
  await new Promise((done) => setTimeout(done, 20));
  return { r, served: sim.served, open: watcher.open(), permits: permits.held() };
}

const verdict = (r: FetchResult): string => `${r.kind}/${'reason' in r ? r.reason : ''}`;

describe.each(MODES)('fetchBounded with a request guard (%s)', (mode) => {
  it('uses a chain of same-origin hops and reports its final URL and hop count', async () => {
    const routes = { [`${PUB}/a`]: to('/b'), [`${PUB}/b`]: to('/skills/x/SKILL.md'), [`${PUB}/skills/x/SKILL.md`]: body() };
    const { r, open } = await run(mode, routes, `${PUB}/a`, 'skill-md');
    expect(r, JSON.stringify(r)).toMatchObject({ kind: 'ok' });
    if (r.kind === 'ok') {
      expect(r.finalUrl).toBe(`${PUB}/skills/x/SKILL.md`);
      expect(r.redirects).toBe(2);
    }
    expect(open).toBe(0);
  });

  it('refuses an artifact redirected to a loopback address, which never receives the request', async () => {
    const routes = { [`${PUB}/s.md`]: to('https://127.0.0.1:8443/secret.md'), 'https://127.0.0.1:8443/secret.md': body() };
    const { r, served } = await run(mode, routes, `${PUB}/s.md`, 'skill-md');
    expect(verdict(r)).toBe('blocked/url-private-target');
    expect(served).not.toContain('https://127.0.0.1:8443/secret.md');
  });

  it('refuses a discovery document that leaves the origin and comes back', async () => {
    const routes = { [`${PUB}/llms.txt`]: to('https://away.example/x'), 'https://away.example/x': to(`${PUB}/real.txt`), [`${PUB}/real.txt`]: { body: '# t\n', type: 'text/plain' } };
    const { r, served } = await run(mode, routes, `${PUB}/llms.txt`, 'llms-txt');
    expect(verdict(r)).toBe('absent/cross-origin-redirect');
    expect(served).not.toContain(`${PUB}/real.txt`);
    if (mode === 'firefox') expect(served).not.toContain('https://away.example/x');
  });

  it('refuses an https chain with a plain-http hop in the middle', async () => {
    const routes = { [`${PUB}/s.md`]: to('http://pub.example/hop'), 'http://pub.example/hop': to(`${PUB}/final.md`), [`${PUB}/final.md`]: body() };
    const { r, served } = await run(mode, routes, `${PUB}/s.md`, 'skill-md');
    expect(verdict(r)).toBe('blocked/url-downgrade');
    expect(served).not.toContain(`${PUB}/final.md`);
  });

  it('takes exactly 5 hops and refuses a 6th; a loop is too many redirects', async () => {
    const chain = (n: number): Record<string, Route> => {
      const routes: Record<string, Route> = {};
      for (let i = 0; i < n; i++) routes[`${PUB}/h${i}`] = to(`/h${i + 1}`);
      routes[`${PUB}/h${n}`] = body();
      return routes;
    };
    expect((await run(mode, chain(5), `${PUB}/h0`, 'skill-md')).r.kind).toBe('ok');
    expect(verdict((await run(mode, chain(6), `${PUB}/h0`, 'skill-md')).r)).toBe('absent/too-many-redirects');
    const loop = { [`${PUB}/a`]: to('/b'), [`${PUB}/b`]: to('/a') };
    expect(verdict((await run(mode, loop, `${PUB}/a`, 'llms-txt')).r)).toBe('absent/too-many-redirects');
  });

  it('drops redirected bytes when the browser did not show the chain', async () => {
    const routes = { [`${PUB}/a`]: to('/b'), [`${PUB}/b`]: body() };
    const { r, served } = await run(mode, routes, `${PUB}/a`, 'skill-md', { silent: true });
    expect(verdict(r)).toBe('absent/redirect-blocked');
    // Chrome follows only a Location the browser reported: the hop is never requested.
    if (mode === 'chrome') expect(served).toEqual([`${PUB}/a`]);
  });

  it('a private origin may fetch from itself through redirects, and from another local host', async () => {
    const LOCAL = 'http://127.0.0.1:8080';
    const routes = {
      [`${LOCAL}/llms.txt`]: to('/docs/llms.txt'),
      [`${LOCAL}/docs/llms.txt`]: { body: '# t\n', type: 'text/plain' },
      [`${LOCAL}/s.md`]: to('http://localhost:9000/s.md'),
      'http://localhost:9000/s.md': body(),
    };
    const docs = await run(mode, routes, `${LOCAL}/llms.txt`, 'llms-txt', { origin: LOCAL });
    expect(docs.r.kind).toBe('ok');
    expect(docs.permits).toEqual([]);
    const art = await run(mode, routes, `${LOCAL}/s.md`, 'skill-md', { origin: LOCAL });
    expect(art.r.kind, JSON.stringify(art.r)).toBe('ok');
    expect(art.permits).toEqual([]);
  });
});

describe('fetchBounded in Chrome: hop by hop from the reported Location, each hop with a permit for exactly its URL', () => {
  it('no hop is requested before it is checked: a hop off the origin and a private hop never reach the network', async () => {
    const routes = { [`${PUB}/llms.txt`]: to('https://away.example/x'), 'https://away.example/x': to(`${PUB}/real.txt`), [`${PUB}/s.md`]: to('https://127.0.0.1/secret') };
    expect((await run('chrome', routes, `${PUB}/llms.txt`, 'llms-txt')).served).toEqual([`${PUB}/llms.txt`]);
    const { r, served } = await run('chrome', routes, `${PUB}/s.md`, 'skill-md');
    expect(verdict(r)).toBe('blocked/url-private-target');
    expect(served).toEqual([`${PUB}/s.md`]);
  });

  it('the same verdicts when the events come after the fetch settled, in reverse order', async () => {
    const routes = { [`${PUB}/a`]: to('/b'), [`${PUB}/b`]: to('https://cdn.example/c'), 'https://cdn.example/c': body() };
    const early = await run('chrome', routes, `${PUB}/a`, 'skill-md');
    const late = await run('chrome', routes, `${PUB}/a`, 'skill-md', { late: true });
    expect(early.r).toMatchObject({ kind: 'ok', finalUrl: 'https://cdn.example/c', redirects: 2 });
    expect(late.r).toEqual(early.r);
    const rebound = (host: string): string => (host === 'cdn.example' ? '10.0.0.7' : '93.184.216.34');
    expect(verdict((await run('chrome', routes, `${PUB}/a`, 'skill-md', { addressOf: rebound })).r)).toBe('blocked/url-private-target');
    expect(verdict((await run('chrome', routes, `${PUB}/a`, 'skill-md', { addressOf: rebound, late: true })).r)).toBe('blocked/url-private-target');
  });
});

describe('fetchBounded in Chrome: where a name resolved (webRequest ip)', () => {
  const CDN = 'https://cdn.example/s.md';
  const at =
    (map: Record<string, string>) =>
    (host: string): string | undefined =>
      map[host];

  it('bytes another public name served from a private address are dropped (the request was already made)', async () => {
    for (const address of ['127.0.0.1', '192.168.1.20', '::1', 'fd00::5', '169.254.169.254']) {
      const { r, served } = await run('chrome', { [CDN]: body() }, CDN, 'skill-md', { addressOf: at({ 'cdn.example': address }) });
      expect(verdict(r), address).toBe('blocked/url-private-target');
      expect(served).toEqual([CDN]);
    }
  });

  it('a redirect answered from a private address is refused before its Location is followed', async () => {
    const routes = { [`${PUB}/s.md`]: to('https://hop.example/s.md'), 'https://hop.example/s.md': to(`${PUB}/final.md`), [`${PUB}/final.md`]: body() };
    const { r, served } = await run('chrome', routes, `${PUB}/s.md`, 'skill-md', { addressOf: at({ 'pub.example': '93.184.216.34', 'hop.example': '127.0.0.1' }) });
    expect(verdict(r)).toBe('blocked/url-private-target');
    expect(served).not.toContain(`${PUB}/final.md`);
  });

  it('the visited host is taken from wherever it resolves; a private origin is left to the name rules', async () => {
    const loop = at({ 'pub.example': '127.0.0.1', 'cdn.example': '127.0.0.1' });
    expect((await run('chrome', { [`${PUB}/s.md`]: body() }, `${PUB}/s.md`, 'skill-md', { addressOf: loop })).r.kind).toBe('ok');
    const LOCAL = 'http://intranet:8080';
    expect((await run('chrome', { 'http://cdn.example/s.md': body() }, 'http://cdn.example/s.md', 'skill-md', { origin: LOCAL, addressOf: loop })).r.kind).toBe('ok');
  });

  it('a public address passes; no address reported is a transient failure, not a verdict on the publisher', async () => {
    expect((await run('chrome', { [CDN]: body() }, CDN, 'skill-md', { addressOf: at({ 'cdn.example': '93.184.216.34' }) })).r.kind).toBe('ok');
    expect(verdict((await run('chrome', { [CDN]: body() }, CDN, 'skill-md', { addressOf: () => undefined })).r)).toBe('transient/network');
  });
});

describe('fetchBounded with a vetting guard (Firefox name lookups)', () => {
  it('refuses a hop whose name the vet refuses, before it is requested', async () => {
    const routes = { [`${PUB}/s.md`]: to('https://cdn.example/s.md'), 'https://cdn.example/s.md': body() };
    const vet = async (_o: string, u: URL): Promise<string | null> => (u.hostname === 'cdn.example' ? 'url-private-target' : null);
    const { r, served } = await run('firefox', routes, `${PUB}/s.md`, 'skill-md', { vet });
    expect(verdict(r)).toBe('blocked/url-private-target');
    expect(served).toEqual([`${PUB}/s.md`]);
  });

  it('a name that cannot be resolved is a transient failure, not a verdict on the publisher', async () => {
    const routes = { [`${PUB}/s.md`]: body() };
    const vet = async (): Promise<string | null> => UNRESOLVED;
    const { r } = await run('firefox', routes, `${PUB}/s.md`, 'skill-md', { vet });
    expect(verdict(r)).toBe('transient/network');
  });
});

describe('Chrome behind a proxy: the address the visited origin answered from', () => {
  const CDN = 'https://cdn.example/s.md';
  /** One worker's watcher for several fetches, as the background keeps it. */
  async function session(addressOf: (host: string) => string | undefined) {
    const rules = simRules();
    const permits = createPermits((c) => rules.update(c), { extensionId: EXT_ID });
    await permits.install([]);
    const watcher = createRequestWatcher({ extensionBase: EXT_BASE, blocking: false, manualRedirects: true, waitMs: 200, prepare: (u) => permits.acquire(u) });
    const routes = { [`${PUB}/llms.txt`]: { body: '# Site\n' }, [CDN]: body() };
    const sim = simBrowser(routes, watcher, { chrome: { rules, addressOf } });
    return (url: string, kind: DocumentKind) => fetchBounded(sim.fetch, url, { kind, origin: PUB, clock, guard: watcher.guard });
  }

  it('an artifact host answering from the same private address as the origin itself (a proxy) is not refused', async () => {
    const fetchOne = await session(() => '10.0.0.5');
    expect((await fetchOne(`${PUB}/llms.txt`, 'llms-txt')).kind).toBe('ok');
    expect(verdict(await fetchOne(CDN, 'skill-md'))).toBe('ok/');
  });

  it('another private address than the origin answered from is still refused', async () => {
    const fetchOne = await session((host) => (host === 'pub.example' ? '10.0.0.5' : '127.0.0.1'));
    expect((await fetchOne(`${PUB}/llms.txt`, 'llms-txt')).kind).toBe('ok');
    expect(verdict(await fetchOne(CDN, 'skill-md'))).toBe('blocked/url-private-target');
  });
});
