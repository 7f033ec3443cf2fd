// fetchBounded with an injected fetch: request options, public-origin redirect rules, the
// browser's opaque-redirect fallback, and failure modes a real server cannot produce.
import { describe, expect, it } from 'vitest';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import { isArtifactKind, type Clock, type DocumentKind, type FetchLike } from '../../../lib/types';
import type { BoundedFetchOptions, FetchResult } from '../../../lib/net/fetch-result';

interface Call {
  url: string;
  init: RequestInit;
}

function stub(answer: (url: string, init: RequestInit, n: number) => Response | Promise<Response>): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ url, init });
    return Promise.resolve(answer(url, init, calls.length - 1));
  };
  return { fetch, calls };
}

function opaqueRedirect(): Response {
  const r = new Response(null, { status: 200 });
  Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
  Object.defineProperty(r, 'status', { value: 0 });
  return r;
}

function followed(body: string | null, finalUrl: string, redirected: boolean, init: ResponseInit = { status: 200 }): Response {
  const r = new Response(body, init);
  Object.defineProperty(r, 'url', { value: finalUrl });
  Object.defineProperty(r, 'redirected', { value: redirected });
  return r;
}

const redirect = (location: string, status = 302): Response => new Response(null, { status, headers: { Location: location } });
const md = (body = '---\nname: x\n---\n'): Response => new Response(body, { status: 200, headers: { 'Content-Type': 'text/markdown' } });

const clock: Clock = { now: () => 1_000 };
const PUB = 'https://pub.example';

function run(fetch: FetchLike, url: string, kind: DocumentKind, extra: Partial<BoundedFetchOptions> = {}): Promise<FetchResult> {
  return fetchBounded(fetch, url, { kind, origin: PUB, clock, ...extra });
}

function headerOf(init: RequestInit, name: string): string | undefined {
  return new Headers(init.headers).get(name) ?? undefined;
}

describe('request options', () => {
  it('uses GET, omits credentials, sends no referrer, bypasses the HTTP cache, follows redirects itself', async () => {
    const s = stub(() => md());
    await run(s.fetch, 'https://pub.example/a/SKILL.md', 'skill-md');
    expect(s.calls).toHaveLength(1);
    const init = s.calls[0]!.init;
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('omit');
    expect(init.referrerPolicy).toBe('no-referrer');
    expect(init.cache).toBe('no-store');
    expect(init.redirect).toBe('manual');
    expect(init.priority).toBe('low');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(headerOf(init, 'if-none-match')).toBeUndefined();
    expect(headerOf(init, 'if-modified-since')).toBeUndefined();
  });

  it.each([
    ['llms-txt', /^text\/plain/],
    ['index', /^application\/json/],
    ['legacy-index', /^application\/json/],
    ['attestations', /^application\/json/],
    ['signing-key', /^text\/plain/],
    ['skill-md', /^text\/markdown/],
    ['archive', /^application\/zip/],
  ] as const)('%s sends a fitting Accept header', async (kind, accept) => {
    const s = stub(() => new Response('{}', { status: 200 }));
    const path = isArtifactKind(kind) ? '/artifact' : '/doc';
    await run(s.fetch, PUB + path, kind);
    expect(headerOf(s.calls[0]!.init, 'accept')).toMatch(accept);
  });

  it('sends the stored validators, and the same options on every hop', async () => {
    const s = stub((_u, _i, n) => (n === 0 ? redirect('/llms2.txt', 301) : new Response('# x', { status: 200 })));
    await run(s.fetch, PUB + '/llms.txt', 'llms-txt', { conditional: { etag: '"abc"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' } });
    expect(s.calls).toHaveLength(2);
    for (const c of s.calls) {
      expect(headerOf(c.init, 'if-none-match')).toBe('"abc"');
      expect(headerOf(c.init, 'if-modified-since')).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
      expect(c.init.credentials).toBe('omit');
      expect(c.init.referrerPolicy).toBe('no-referrer');
      expect(c.init.redirect).toBe('manual');
    }
    expect(s.calls[1]!.url).toBe(PUB + '/llms2.txt');
  });

  it('measures ms with the injected clock', async () => {
    let t = 5_000;
    const s = stub(() => {
      t += 250;
      return md();
    });
    const r = await fetchBounded(s.fetch, PUB + '/a/SKILL.md', { kind: 'skill-md', origin: PUB, clock: { now: () => t } });
    expect(r.ms).toBe(250);
  });
});

describe('refused before any request', () => {
  it('an unparseable URL is blocked', async () => {
    const s = stub(() => md());
    expect(await run(s.fetch, 'not a url', 'skill-md')).toMatchObject({ kind: 'blocked', reason: 'url-invalid' });
    expect(s.calls).toHaveLength(0);
  });

  it('an unusable origin is blocked', async () => {
    const s = stub(() => md());
    expect(await fetchBounded(s.fetch, PUB + '/llms.txt', { kind: 'llms-txt', origin: 'nope', clock })).toMatchObject({ kind: 'blocked', reason: 'origin-invalid' });
    expect(await fetchBounded(s.fetch, PUB + '/llms.txt', { kind: 'llms-txt', origin: 'file:///x', clock })).toMatchObject({ kind: 'blocked', reason: 'origin-invalid' });
    expect(s.calls).toHaveLength(0);
  });

  it('a discovery URL on another origin is blocked', async () => {
    const s = stub(() => md());
    expect(await run(s.fetch, 'https://www.pub.example/llms.txt', 'llms-txt')).toMatchObject({ kind: 'blocked', reason: 'url-cross-origin' });
    expect(await run(s.fetch, 'http://pub.example/llms.txt', 'index')).toMatchObject({ kind: 'blocked', reason: 'url-cross-origin' });
    expect(s.calls).toHaveLength(0);
  });

  it.each([
    ['https://127.0.0.1/a/SKILL.md', 'url-private-target'],
    ['https://[::1]/a', 'url-private-target'],
    ['https://[::ffff:a00:1]/a', 'url-private-target'],
    ['https://169.254.169.254/a', 'url-private-target'],
    ['https://nas.local/a', 'url-private-target'],
    ['http://cdn.example/a', 'url-downgrade'],
    ['https://u:p@cdn.example/a', 'url-credentials'],
    ['data:text/plain,x', 'url-scheme'],
    ['javascript:alert(1)', 'url-scheme'],
    ['file:///etc/passwd', 'url-scheme'],
    ['blob:https://pub.example/1', 'url-scheme'],
    ['chrome-extension://abc/x', 'url-scheme'],
  ])('artifact %s is blocked (%s)', async (url, reason) => {
    const s = stub(() => md());
    expect(await run(s.fetch, url, 'skill-md')).toMatchObject({ kind: 'blocked', reason, url });
    expect(s.calls).toHaveLength(0);
  });

  it('a caller signal already aborted sends nothing', async () => {
    const s = stub(() => md());
    const ac = new AbortController();
    ac.abort();
    expect(await run(s.fetch, PUB + '/a', 'skill-md', { signal: ac.signal })).toMatchObject({ kind: 'transient', reason: 'network' });
    expect(s.calls).toHaveLength(0);
  });
});

describe('redirects from a public origin', () => {
  it('an artifact redirected to a private host is blocked and the private host is never asked', async () => {
    for (const [location, reason] of [
      ['https://127.0.0.1/secret', 'url-private-target'],
      ['https://[::ffff:7f00:1]/secret', 'url-private-target'],
      ['https://10.1.2.3/secret', 'url-private-target'],
      ['https://localhost/secret', 'url-private-target'],
      ['https://router.local/secret', 'url-private-target'],
      ['http://cdn.example/a', 'url-downgrade'],
      ['https://u:p@cdn.example/a', 'url-credentials'],
      ['data:text/plain,x', 'url-scheme'],
    ] as const) {
      const s = stub(() => redirect(location));
      const r = await run(s.fetch, PUB + '/a/SKILL.md', 'skill-md');
      expect(r, location).toMatchObject({ kind: 'blocked', reason });
      expect(s.calls, location).toHaveLength(1);
    }
  });

  it('the check applies to a later hop too', async () => {
    const s = stub((_u, _i, n) => (n === 0 ? redirect('https://cdn.example/x') : n === 1 ? redirect('https://192.168.0.1/x') : md()));
    expect(await run(s.fetch, PUB + '/a.zip', 'archive')).toMatchObject({ kind: 'blocked', reason: 'url-private-target' });
    expect(s.calls.map((c) => c.url)).toEqual([PUB + '/a.zip', 'https://cdn.example/x']);
  });

  it('an artifact may move to another public host', async () => {
    const s = stub((_u, _i, n) => (n === 0 ? redirect('https://cdn.example/a/SKILL.md', 307) : md()));
    expect(await run(s.fetch, PUB + '/a/SKILL.md', 'skill-md')).toMatchObject({ kind: 'ok', redirects: 1, finalUrl: 'https://cdn.example/a/SKILL.md' });
  });

  it('apex → www is another origin for a discovery document', async () => {
    const s = stub(() => redirect('https://www.pub.example/.well-known/agent-skills/index.json', 301));
    expect(await run(s.fetch, PUB + '/.well-known/agent-skills/index.json', 'index')).toMatchObject({
      kind: 'absent',
      reason: 'cross-origin-redirect',
      finalUrl: 'https://www.pub.example/.well-known/agent-skills/index.json',
    });
    expect(s.calls).toHaveLength(1);
  });

  it('an artifact with more than 5 hops is absent too-many-redirects', async () => {
    const s = stub((_u, _i, n) => redirect(`https://cdn.example/h${n}`));
    expect(await run(s.fetch, PUB + '/a/SKILL.md', 'skill-md')).toMatchObject({ kind: 'absent', reason: 'too-many-redirects' });
    expect(s.calls).toHaveLength(6);
  });

  it('a relative Location resolves against the current hop', async () => {
    const s = stub((_u, _i, n) => (n === 0 ? redirect('https://cdn.example/dir/a') : n === 1 ? redirect('../b/SKILL.md') : md()));
    expect(await run(s.fetch, PUB + '/x', 'skill-md')).toMatchObject({ kind: 'ok', redirects: 2, finalUrl: 'https://cdn.example/b/SKILL.md' });
  });
});

describe('opaque-redirect fallback (browsers)', () => {
  it('re-issues the request with redirect:"follow" and checks the final URL', async () => {
    const s = stub((u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('# hi', PUB + '/moved/llms.txt', true)));
    const r = await run(s.fetch, PUB + '/llms.txt', 'llms-txt');
    expect(r).toMatchObject({ kind: 'ok', finalUrl: PUB + '/moved/llms.txt', redirects: 1 });
    expect(s.calls).toHaveLength(2);
    expect(s.calls[1]!.url).toBe(PUB + '/llms.txt');
    expect(s.calls[1]!.init.redirect).toBe('follow');
    expect(s.calls[1]!.init.credentials).toBe('omit');
    expect(s.calls[1]!.init.referrerPolicy).toBe('no-referrer');
  });

  it('a discovery document that ended on another origin is absent', async () => {
    const s = stub((_u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('# hi', 'https://evil.example/llms.txt', true)));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({
      kind: 'absent',
      reason: 'cross-origin-redirect',
      finalUrl: 'https://evil.example/llms.txt',
    });
  });

  it('an artifact that ended on a private host is blocked', async () => {
    const s = stub((_u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('---\n', 'https://192.168.1.1/x', true)));
    expect(await run(s.fetch, PUB + '/a/SKILL.md', 'skill-md')).toMatchObject({ kind: 'blocked', reason: 'url-private-target' });
  });

  it('an artifact that ended on plain http is blocked', async () => {
    const s = stub((_u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('---\n', 'http://cdn.example/x', true)));
    expect(await run(s.fetch, PUB + '/a/SKILL.md', 'skill-md')).toMatchObject({ kind: 'blocked', reason: 'url-downgrade' });
  });

  it('maps the final status as usual', async () => {
    const s = stub((_u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('nope', PUB + '/gone', true, { status: 404 })));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'absent', reason: 'not-found', finalUrl: PUB + '/gone' });
  });

  it('without a visible final URL the requested URL stands', async () => {
    const s = stub((_u, init) => (init.redirect === 'manual' ? opaqueRedirect() : followed('# x', '', false)));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'ok', finalUrl: PUB + '/llms.txt', redirects: 0 });
  });

  it('a followed chain that fails (Chromium: a loop or more than 20 hops is a TypeError) is absent too-many-redirects', async () => {
    const s: { fetch: FetchLike; calls: Call[] } = {
      calls: [],
      fetch: (url, init) => {
        s.calls.push({ url, init });
        return init.redirect === 'manual' ? Promise.resolve(opaqueRedirect()) : Promise.reject(new TypeError('Failed to fetch'));
      },
    };
    for (const kind of ['llms-txt', 'skill-md'] as const) {
      const r = await run(s.fetch, PUB + '/llms.txt', kind);
      expect(r).toMatchObject({ kind: 'absent', reason: 'too-many-redirects' });
    }
  });

  it('a network error on the very first request stays transient', async () => {
    const r = await run(() => Promise.reject(new TypeError('Failed to fetch')), PUB + '/llms.txt', 'llms-txt');
    expect(r).toMatchObject({ kind: 'transient', reason: 'network' });
  });

  it('an opaque answer to the follow request too is absent redirect-blocked', async () => {
    const s = stub(() => opaqueRedirect());
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'absent', reason: 'redirect-blocked' });
    expect(s.calls).toHaveLength(2);
  });
});

describe('failures a server cannot easily produce', () => {
  it('a fetch that never settles and ignores the signal still times out', async () => {
    const fetch: FetchLike = () => new Promise<Response>(() => undefined);
    expect(await run(fetch, PUB + '/llms.txt', 'llms-txt', { timeoutMs: 40 })).toMatchObject({ kind: 'transient', reason: 'timeout' });
  });

  it('a body that never ends and ignores the signal still times out', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: () => new Promise<void>(() => undefined),
      cancel: () => {
        cancelled = true;
      },
    });
    const s = stub(() => new Response(body, { status: 200 }));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt', { timeoutMs: 40 })).toMatchObject({ kind: 'transient', reason: 'timeout' });
    expect(cancelled).toBe(true);
  });

  it('a fetch that throws synchronously or rejects is a network error', async () => {
    const throwing: FetchLike = () => {
      throw new TypeError('boom');
    };
    expect(await run(throwing, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'transient', reason: 'network' });
    const rejecting: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await run(rejecting, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'transient', reason: 'network' });
  });

  it('a stream error mid-body is a network error', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2, 3]));
        controller.error(new Error('reset'));
      },
    });
    const s = stub(() => new Response(body, { status: 200 }));
    expect(await run(s.fetch, PUB + '/a.zip', 'archive')).toMatchObject({ kind: 'transient', reason: 'network' });
  });

  it('a status 0 that is not an opaque redirect is a network error', async () => {
    const s = stub(() => {
      const r = new Response(null, { status: 200 });
      Object.defineProperty(r, 'status', { value: 0 });
      return r;
    });
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'transient', reason: 'network', status: null });
  });
});

describe('default byte caps per kind', () => {
  it.each([
    ['llms-txt', 1_048_576],
    ['index', 262_144],
    ['signing-key', 262_144],
    ['skill-md', 262_144],
    ['archive', 16_777_216],
  ] as const)('%s: a declared length one over %d is too-large and the body is not read', async (kind, cap) => {
    let pulled = false;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new Uint8Array(1));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const s = stub(() => new Response(body, { status: 200, headers: { 'Content-Length': String(cap + 1) } }));
    const url = PUB + (isArtifactKind(kind) ? '/artifact' : '/doc');
    expect(await run(s.fetch, url, kind)).toMatchObject({ kind: 'too-large', limit: cap });
    expect(pulled).toBe(false);
    expect(cancelled).toBe(true);
  });

  it('an index streamed past 256 KiB without Content-Length is too-large and cancelled', async () => {
    let sent = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const s = stub(() => new Response(body, { status: 200 }));
    expect(await run(s.fetch, PUB + '/.well-known/agent-skills/index.json', 'index')).toMatchObject({ kind: 'too-large', limit: 262_144 });
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThanOrEqual(262_144 + 3 * 64 * 1024);
  });

  it('a malformed Content-Length is ignored and the streamed size decides', async () => {
    const s = stub(() => new Response('# ok', { status: 200, headers: { 'Content-Length': 'lots' } }));
    const r = await run(s.fetch, PUB + '/llms.txt', 'llms-txt');
    expect(r.kind).toBe('ok');
  });
});

describe('status details', () => {
  it('204 is ok with no bytes', async () => {
    const s = stub(() => new Response(null, { status: 204 }));
    const r = await run(s.fetch, PUB + '/llms.txt', 'llms-txt');
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.bytes.byteLength).toBe(0);
  });

  it('a 304 nobody asked for is absent client-error', async () => {
    const s = stub(() => new Response(null, { status: 304 }));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt')).toMatchObject({ kind: 'absent', reason: 'client-error', status: 304 });
  });

  it('a 304 without validators carries the ones sent', async () => {
    const s = stub(() => new Response(null, { status: 304, headers: { 'Cache-Control': 'max-age=60' } }));
    expect(await run(s.fetch, PUB + '/llms.txt', 'llms-txt', { conditional: { etag: '"e1"', lastModified: null } })).toMatchObject({
      kind: 'not-modified',
      etag: '"e1"',
      lastModified: null,
      cacheControl: 'max-age=60',
    });
  });

  it('Retry-After as an HTTP date is measured from the injected clock', async () => {
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    const s = stub(() => new Response('busy', { status: 503, headers: { 'Retry-After': 'Wed, 01 Jan 2025 00:00:30 GMT' } }));
    const r = await fetchBounded(s.fetch, PUB + '/llms.txt', { kind: 'llms-txt', origin: PUB, clock: { now: () => now } });
    expect(r).toMatchObject({ kind: 'transient', reason: 'server-error', retryAfterMs: 30_000 });
  });

  it('an archive answered with an HTML page is absent html', async () => {
    const s = stub(() => new Response('<!doctype html><title>404</title>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    expect(await run(s.fetch, PUB + '/a.zip', 'archive')).toMatchObject({ kind: 'absent', reason: 'html' });
  });

  it('a signing key answered with an HTML page is absent html', async () => {
    const s = stub(() => new Response('<html><body>x</body></html>', { status: 200 }));
    expect(await run(s.fetch, PUB + '/.well-known/agent-skills/signing-key.pub', 'signing-key')).toMatchObject({ kind: 'absent', reason: 'html' });
  });
});
