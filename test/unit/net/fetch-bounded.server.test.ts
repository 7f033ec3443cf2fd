// fetchBounded against a real loopback server (the platform fetch, hop-by-hop redirects).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import type { Clock, DocumentKind, FetchLike } from '../../../lib/types';
import type { BoundedFetchOptions, FetchResult } from '../../../lib/net/fetch-result';
import { startServer, type Route, type TestServer } from '../../support/server';

const realFetch: FetchLike = (url, init) => fetch(url, init);
const clock: Clock = { now: () => Date.now() };

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;
const on =
  (path: string, handler: Handler): Route =>
  (req, res, url) => {
    if (url.pathname !== path) return false;
    handler(req, res, url);
    return true;
  };

const closed = new Map<string, boolean>();
const timers = new Set<ReturnType<typeof setInterval>>();

function endless(path: string, chunk: Uint8Array, everyMs: number, headers: Record<string, string> = {}): Route {
  return on(path, (_req, res) => {
    closed.set(path, false);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', ...headers });
    const t = setInterval(() => res.write(chunk), everyMs);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
      closed.set(path, true);
    });
  });
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  other = await startServer({ files: { '/llms.txt': '# Other\n', '/SKILL.md': '---\nname: other\n---\n' } });
  server = await startServer({
    cacheControl: 'max-age=600',
    files: {
      '/llms.txt': '# Site\n\n## Skills\n- [a](/a/SKILL.md)\n',
      '/.well-known/agent-skills/index.json': '{"skills":[]}',
      '/a/SKILL.md': '---\nname: a\n---\r\nbody\r\n',
      '/bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x0a]),
      '/exact.txt': 'x'.repeat(100),
      '/over.txt': 'x'.repeat(101),
    },
    routes: [
      on('/soft404/llms.txt', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!DOCTYPE html><html><body>Not found</body></html>');
      }),
      on('/soft404/index.json', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('\n<div id="root"></div>');
      }),
      on('/soft404/SKILL.md', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<div>Page not found</div>');
      }),
      on('/declared-over', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '5000' });
        res.end('y'.repeat(5000));
      }),
      on('/chunked-over', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        for (let i = 0; i < 10; i++) res.write('z'.repeat(50));
        res.end();
      }),
      endless('/endless', new Uint8Array(1024).fill(0x61), 2),
      endless('/drip', new Uint8Array([0x62]), 40, { 'Content-Type': 'text/plain' }),
      on('/hang', () => {
        // Never answers.
      }),
      on('/reset', (req) => {
        req.socket.destroy();
      }),
      on('/reset-mid-body', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
        res.write('partial');
        setTimeout(() => res.socket?.destroy(), 20);
      }),
      (req, res, url) => {
        const m = /^\/status\/(\d{3})$/.exec(url.pathname);
        if (!m) return false;
        const status = Number(m[1]);
        const headers: Record<string, string> = { 'Content-Type': 'text/plain' };
        if (status === 429) headers['Retry-After'] = '7';
        if (status === 503) headers['Retry-After'] = 'soon';
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : 'status body');
        return true;
      },
      (_req, res, url) => {
        // /hops/N/... redirects N times on this origin, then serves the SKILL.md.
        const m = /^\/hops\/(\d+)$/.exec(url.pathname);
        if (!m) return false;
        const n = Number(m[1]);
        if (n === 0) {
          res.writeHead(200, { 'Content-Type': 'text/markdown' });
          res.end('---\nname: hopped\n---\n');
        } else {
          res.writeHead(n % 2 === 0 ? 301 : 307, { Location: `/hops/${n - 1}` });
          res.end();
        }
        return true;
      },
      on('/loop-a', (_req, res) => {
        res.writeHead(302, { Location: '/loop-b' });
        res.end();
      }),
      on('/loop-b', (_req, res) => {
        res.writeHead(302, { Location: '/loop-a' });
        res.end();
      }),
      on('/to-other', (_req, res) => {
        res.writeHead(302, { Location: other.url('/llms.txt') });
        res.end();
      }),
      on('/to-other-skill', (_req, res) => {
        res.writeHead(302, { Location: other.url('/SKILL.md') });
        res.end();
      }),
      on('/to-https', (_req, res) => {
        res.writeHead(301, { Location: server.origin.replace('http:', 'https:') + '/llms.txt' });
        res.end();
      }),
      on('/no-location', (_req, res) => {
        res.writeHead(302, {});
        res.end();
      }),
      on('/bad-location', (_req, res) => {
        res.writeHead(302, { Location: 'http://[::bad/' });
        res.end();
      }),
      on('/llms-redirect', (_req, res) => {
        res.writeHead(308, { Location: '/llms.txt#frag' });
        res.end();
      }),
    ],
  });
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await server.close();
  await other.close();
});

function get(path: string, kind: DocumentKind, extra: Partial<BoundedFetchOptions> = {}): Promise<FetchResult> {
  return fetchBounded(realFetch, server.url(path), { kind, origin: server.origin, clock, ...extra });
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const requestsTo = (s: TestServer, path: string): number => s.log.filter((r) => r.path === path).length;

describe('fetchBounded over HTTP: 200', () => {
  it('returns the raw bytes and the response facts', async () => {
    const r = await get('/a/SKILL.md', 'skill-md');
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(text(r.bytes)).toBe('---\nname: a\n---\r\nbody\r\n');
    expect(r.status).toBe(200);
    expect(r.url).toBe(server.url('/a/SKILL.md'));
    expect(r.finalUrl).toBe(server.url('/a/SKILL.md'));
    expect(r.contentType).toBe('text/markdown; charset=utf-8');
    expect(r.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(r.lastModified).not.toBeNull();
    expect(r.cacheControl).toBe('max-age=600');
    expect(r.redirects).toBe(0);
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps a BOM (bytes are never decoded)', async () => {
    const r = await get('/bom.txt', 'llms-txt');
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect([...r.bytes]).toEqual([0xef, 0xbb, 0xbf, 0x23, 0x0a]);
  });

  it('sends GET with an Accept header for the kind and no cookies or referrer', async () => {
    await get('/.well-known/agent-skills/index.json', 'index');
    const entry = server.log.filter((r) => r.path === '/.well-known/agent-skills/index.json').at(-1);
    expect(entry?.method).toBe('GET');
    expect(String(entry?.headers['accept'])).toMatch(/^application\/json/);
    expect(entry?.headers['cookie']).toBeUndefined();
    expect(entry?.headers['referer']).toBeUndefined();
    expect(entry?.headers['if-none-match']).toBeUndefined();
  });
});

describe('fetchBounded over HTTP: byte caps', () => {
  it('accepts a body of exactly the cap', async () => {
    const r = await get('/exact.txt', 'llms-txt', { cap: 100 });
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.bytes.byteLength).toBe(100);
  });

  it('refuses one byte over the cap (with Content-Length)', async () => {
    const r = await get('/over.txt', 'llms-txt', { cap: 100 });
    expect(r).toMatchObject({ kind: 'too-large', limit: 100, status: 200, finalUrl: server.url('/over.txt') });
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    const r = await get('/declared-over', 'skill-md', { cap: 1000 });
    expect(r).toMatchObject({ kind: 'too-large', limit: 1000, contentType: 'text/plain' });
  });

  it('refuses a body without Content-Length once the streamed bytes pass the cap', async () => {
    const r = await get('/chunked-over', 'index', { cap: 120 });
    expect(r).toMatchObject({ kind: 'too-large', limit: 120 });
    const ok = await get('/chunked-over', 'llms-txt', { cap: 500 });
    expect(ok.kind).toBe('ok');
    if (ok.kind === 'ok') expect(ok.bytes.byteLength).toBe(500);
  });

  it('stops an endless body at the cap and closes the connection', async () => {
    const r = await get('/endless', 'archive', { cap: 64 * 1024, timeoutMs: 5000 });
    expect(r).toMatchObject({ kind: 'too-large', limit: 64 * 1024 });
    await waitFor(() => closed.get('/endless') === true);
  });
});

describe('fetchBounded over HTTP: timeouts and network errors', () => {
  it('times out a server that never answers', async () => {
    const started = Date.now();
    const r = await get('/hang', 'llms-txt', { timeoutMs: 150 });
    expect(r).toMatchObject({ kind: 'transient', reason: 'timeout', status: null, retryAfterMs: null });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('times out a slow drip: the timeout covers the body too', async () => {
    const r = await get('/drip', 'llms-txt', { timeoutMs: 300 });
    expect(r).toMatchObject({ kind: 'transient', reason: 'timeout' });
    await waitFor(() => closed.get('/drip') === true);
  });

  it('reports a refused connection as a network error', async () => {
    const gone = await startServer({});
    const url = gone.url('/llms.txt');
    const origin = gone.origin;
    await gone.close();
    const r = await fetchBounded(realFetch, url, { kind: 'llms-txt', origin, clock });
    expect(r).toMatchObject({ kind: 'transient', reason: 'network', status: null });
  });

  it('reports a reset connection as a network error', async () => {
    expect(await get('/reset', 'llms-txt')).toMatchObject({ kind: 'transient', reason: 'network' });
  });

  it('reports a body cut short as a network error', async () => {
    expect(await get('/reset-mid-body', 'skill-md')).toMatchObject({ kind: 'transient', reason: 'network' });
  });

  it('stops when the caller aborts', async () => {
    const ac = new AbortController();
    const pending = get('/hang', 'llms-txt', { signal: ac.signal, timeoutMs: 5000 });
    setTimeout(() => ac.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'transient', reason: 'network' });
  });
});

describe('fetchBounded over HTTP: status mapping', () => {
  it.each([
    [404, 'not-found'],
    [410, 'not-found'],
    [401, 'forbidden'],
    [403, 'forbidden'],
    [400, 'client-error'],
    [405, 'client-error'],
    [418, 'client-error'],
  ] as const)('%d → absent %s', async (status, reason) => {
    const r = await get(`/status/${status}`, 'index');
    expect(r).toMatchObject({ kind: 'absent', status, reason, finalUrl: server.url(`/status/${status}`), contentType: 'text/plain' });
  });

  it('429 → transient rate-limited with Retry-After', async () => {
    expect(await get('/status/429', 'llms-txt')).toMatchObject({ kind: 'transient', status: 429, reason: 'rate-limited', retryAfterMs: 7000 });
  });

  it.each([500, 502, 503, 504])('%d → transient server-error', async (status) => {
    const r = await get(`/status/${status}`, 'skill-md');
    expect(r).toMatchObject({ kind: 'transient', status, reason: 'server-error', retryAfterMs: null });
  });

  it('a redirect without Location is absent redirect-blocked', async () => {
    expect(await get('/no-location', 'llms-txt')).toMatchObject({ kind: 'absent', status: 302, reason: 'redirect-blocked' });
  });

  it('an unparseable Location is absent redirect-blocked', async () => {
    expect(await get('/bad-location', 'llms-txt')).toMatchObject({ kind: 'absent', status: 302, reason: 'redirect-blocked' });
  });
});

describe('fetchBounded over HTTP: HTML soft 404', () => {
  it('llms.txt that is an HTML page is absent html', async () => {
    expect(await get('/soft404/llms.txt', 'llms-txt')).toMatchObject({ kind: 'absent', status: 200, reason: 'html', contentType: 'text/html' });
  });
  it('an index starting with "<" is absent html', async () => {
    expect(await get('/soft404/index.json', 'index')).toMatchObject({ kind: 'absent', reason: 'html' });
  });
  it('a SKILL.md served as text/html starting with "<" is absent html', async () => {
    expect(await get('/soft404/SKILL.md', 'skill-md')).toMatchObject({ kind: 'absent', reason: 'html' });
  });
});

describe('fetchBounded over HTTP: revalidation', () => {
  it('sends If-None-Match and If-Modified-Since and maps 304 to not-modified', async () => {
    const first = await get('/llms.txt', 'llms-txt');
    expect(first.kind).toBe('ok');
    if (first.kind !== 'ok') return;
    const second = await get('/llms.txt', 'llms-txt', { conditional: { etag: first.etag, lastModified: first.lastModified } });
    expect(second).toMatchObject({
      kind: 'not-modified',
      status: 304,
      etag: first.etag,
      lastModified: first.lastModified,
      cacheControl: 'max-age=600',
      finalUrl: server.url('/llms.txt'),
    });
    const sent = server.log.filter((r) => r.path === '/llms.txt').at(-1);
    expect(sent?.headers['if-none-match']).toBe(first.etag);
    expect(sent?.headers['if-modified-since']).toBe(first.lastModified);
    expect(sent?.status).toBe(304);
  });

  it('a stale ETag gets the full body again', async () => {
    const r = await get('/llms.txt', 'llms-txt', { conditional: { etag: '"stale"', lastModified: null } });
    expect(r.kind).toBe('ok');
    const sent = server.log.filter((e) => e.path === '/llms.txt').at(-1);
    expect(sent?.headers['if-none-match']).toBe('"stale"');
    expect(sent?.headers['if-modified-since']).toBeUndefined();
  });

  it('revalidates with Last-Modified alone', async () => {
    const first = await get('/a/SKILL.md', 'skill-md');
    if (first.kind !== 'ok') throw new Error('expected ok');
    const r = await get('/a/SKILL.md', 'skill-md', { conditional: { etag: null, lastModified: first.lastModified } });
    expect(r).toMatchObject({ kind: 'not-modified', lastModified: first.lastModified });
  });
});

describe('fetchBounded over HTTP: redirects', () => {
  it('follows same-origin redirects, up to 5 hops', async () => {
    const r = await get('/hops/5', 'skill-md');
    expect(r).toMatchObject({ kind: 'ok', redirects: 5, finalUrl: server.url('/hops/0'), url: server.url('/hops/5') });
    if (r.kind === 'ok') expect(text(r.bytes)).toBe('---\nname: hopped\n---\n');
  });

  it('refuses a sixth hop without requesting it', async () => {
    const before = requestsTo(server, '/hops/0');
    const r = await get('/hops/6', 'skill-md');
    expect(r).toMatchObject({ kind: 'absent', reason: 'too-many-redirects', finalUrl: server.url('/hops/0') });
    expect(requestsTo(server, '/hops/0')).toBe(before);
  });

  it('refuses a redirect loop as soon as it comes back', async () => {
    const a = requestsTo(server, '/loop-a');
    const b = requestsTo(server, '/loop-b');
    const r = await get('/loop-a', 'llms-txt');
    expect(r).toMatchObject({ kind: 'absent', reason: 'too-many-redirects' });
    expect(requestsTo(server, '/loop-a') - a).toBe(1);
    expect(requestsTo(server, '/loop-b') - b).toBe(1);
  });

  it('a discovery document redirected to another origin is absent, and the other origin is never asked', async () => {
    const before = requestsTo(other, '/llms.txt');
    const r = await get('/to-other', 'llms-txt');
    expect(r).toMatchObject({ kind: 'absent', reason: 'cross-origin-redirect', status: 302, finalUrl: other.url('/llms.txt') });
    expect(requestsTo(other, '/llms.txt')).toBe(before);
  });

  it('http → https on the same host is another origin', async () => {
    const r = await get('/to-https', 'index');
    expect(r).toMatchObject({ kind: 'absent', reason: 'cross-origin-redirect', status: 301 });
  });

  it('an artifact may redirect to another host a loopback origin may use', async () => {
    const r = await get('/to-other-skill', 'skill-md');
    expect(r).toMatchObject({ kind: 'ok', redirects: 1, finalUrl: other.url('/SKILL.md') });
  });

  it('drops the fragment of a Location', async () => {
    const r = await get('/llms-redirect', 'llms-txt');
    expect(r).toMatchObject({ kind: 'ok', redirects: 1, finalUrl: server.url('/llms.txt') });
  });
});

describe('fetchBounded: requests that are never sent', () => {
  it('a discovery URL outside the origin is blocked', async () => {
    const before = other.log.length;
    const r = await fetchBounded(realFetch, other.url('/llms.txt'), { kind: 'llms-txt', origin: server.origin, clock });
    expect(r).toMatchObject({ kind: 'blocked', reason: 'url-cross-origin' });
    expect(other.log.length).toBe(before);
  });

  it('an artifact a public origin may not fetch is blocked', async () => {
    const before = server.log.length;
    const r = await fetchBounded(realFetch, server.url('/a/SKILL.md').replace('http:', 'https:'), {
      kind: 'skill-md',
      origin: 'https://pub.example',
      clock,
    });
    expect(r).toMatchObject({ kind: 'blocked', reason: 'url-private-target' });
    expect(server.log.length).toBe(before);
  });
});
