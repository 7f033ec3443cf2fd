// fetchBounded in a browser: the browser follows the chain, the request watcher sees each hop
// (lib/net/request-guard.ts), and the verdict is the one node reaches hop by hop (FORMATS.md §9.2–9.3).
import { describe, expect, it } from 'vitest';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import { createRequestWatcher, UNRESOLVED } from '../../../lib/net/request-guard';
import { needsPermit } from '../../../lib/net/dnr-rules';
import type { Clock, DocumentKind } from '../../../lib/types';
import type { FetchResult } from '../../../lib/net/fetch-result';
import { EXT_BASE, simBrowser, type Route } from './browser-sim';

const clock: Clock = { now: () => 1_000 };
const PUB = 'https://pub.example';
const body = (name = 'x'): Route => ({ body: `---\nname: ${name}\n---\nBody.\n` });
const to = (url: string): Route => ({ to: url });

type Mode = 'chrome' | 'firefox';
const MODES: Mode[] = ['chrome', 'firefox'];

async function run(mode: Mode, routes: Record<string, Route>, url: string, kind: DocumentKind, opts: { origin?: string; vet?: (origin: string, u: URL) => Promise<string | null>; silent?: boolean } = {}): Promise<{ r: FetchResult; served: string[]; open: number }> {
  const watcher = createRequestWatcher({ extensionBase: EXT_BASE, blocking: mode === 'firefox', vet: opts.vet, waitMs: 200 });
  // Chrome: the session rules stop requests to non-public hosts; the fetch holds a permit for
  // the origin of the URL it asked for, not for the hosts a redirect names.
  const origin = opts.origin ?? PUB;
  const blockedByRules = mode === 'chrome' ? (u: URL): boolean => needsPermit(u) && u.origin !== new URL(url).origin : undefined;
  const sim = simBrowser(routes, watcher, { blockedByRules, silent: opts.silent });
  const r = await fetchBounded(sim.fetch, url, { kind, origin, clock, guard: watcher.guard });
  return { r, served: sim.served, open: watcher.open() };
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
    const { r } = await run(mode, routes, `${PUB}/a`, 'skill-md', { silent: true });
    expect(verdict(r)).toBe('absent/redirect-blocked');
  });

  it('a private origin may fetch from itself through redirects', async () => {
    const LOCAL = 'http://127.0.0.1:8080';
    const routes = { [`${LOCAL}/llms.txt`]: to('/docs/llms.txt'), [`${LOCAL}/docs/llms.txt`]: { body: '# t\n', type: 'text/plain' } };
    const { r } = await run(mode, routes, `${LOCAL}/llms.txt`, 'llms-txt', { origin: LOCAL });
    expect(r.kind).toBe('ok');
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
