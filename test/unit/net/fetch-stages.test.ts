// The stages of a bounded fetch on their own: preflight (fetch-request.ts), redirect judging
// (fetch-redirects.ts) and the final response's classification (fetch-bounded.ts).
import { describe, expect, it } from 'vitest';
import { preflight, type RequestCtx } from '../../../lib/net/fetch-request';
import { judgeChain } from '../../../lib/net/fetch-redirects';
import { classify } from '../../../lib/net/fetch-bounded';
import type { DocumentKind } from '../../../lib/types';
import type { BoundedFetchOptions, FetchResult } from '../../../lib/net/fetch-result';

const clock = { now: () => 0 };
const opts = (kind: DocumentKind, origin = 'https://pub.example', extra: Partial<BoundedFetchOptions> = {}): BoundedFetchOptions => ({ kind, origin, clock, ...extra });
const ctx = (url: string, o: BoundedFetchOptions): RequestCtx => {
  const c = preflight(
    url,
    o,
    new AbortController(),
    () => 0,
    () => false,
  );
  if (!('requested' in c)) throw new Error(`refused: ${JSON.stringify(c)}`);
  return c;
};
const kindOf = (r: RequestCtx | FetchResult): string => ('requested' in r ? 'ctx' : `${r.kind}/${'reason' in r ? r.reason : ''}`);

describe('preflight', () => {
  const pf = (url: string, o: BoundedFetchOptions) =>
    kindOf(
      preflight(
        url,
        o,
        new AbortController(),
        () => 0,
        () => false,
      ),
    );
  it('refuses before any request', () => {
    expect(pf('https://pub.example/llms.txt', opts('llms-txt', 'ftp://pub.example'))).toBe('blocked/origin-invalid');
    expect(pf('not a url', opts('llms-txt'))).toBe('blocked/url-invalid');
    expect(pf('https://other.example/llms.txt', opts('llms-txt'))).toBe('blocked/url-cross-origin');
    expect(pf('https://127.0.0.1/SKILL.md', opts('skill-md'))).toBe('blocked/url-private-target');
    expect(pf('http://pub.example/SKILL.md', opts('skill-md'))).toBe('blocked/url-downgrade');
  });
  it('builds the request: GET, no credentials, no referrer, no cache, manual redirects, low priority, validators', () => {
    const c = ctx('https://pub.example/llms.txt', opts('llms-txt', 'https://pub.example', { conditional: { etag: '"e"', lastModified: null } }));
    expect(c.init).toMatchObject({ method: 'GET', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', redirect: 'manual', priority: 'low' });
    expect((c.init.headers as Record<string, string>)['If-None-Match']).toBe('"e"');
    expect(c.etagSent).toBe('"e"');
  });
});

describe('judgeChain', () => {
  it('judges every hop: origin, targets, count and loops', () => {
    const d = ctx('https://pub.example/llms.txt', opts('llms-txt'));
    expect(judgeChain(d, ['https://pub.example/llms.txt', 'https://pub.example/docs/llms.txt'])).toBeNull();
    expect(kindOf(judgeChain(d, ['https://pub.example/llms.txt', 'https://x.example/', 'https://pub.example/llms.txt'])!)).toBe('absent/cross-origin-redirect');
    expect(kindOf(judgeChain(d, ['https://pub.example/llms.txt', 'https://pub.example/a', 'https://pub.example/llms.txt'])!)).toBe('absent/too-many-redirects');
    const a = ctx('https://pub.example/s.md', opts('skill-md'));
    // Artifacts may move to another public host.
    expect(judgeChain(a, ['https://pub.example/s.md', 'https://cdn.example/s.md'])).toBeNull();
  });
});

describe('classify', () => {
  const c = ctx('https://pub.example/llms.txt', opts('llms-txt'));
  const at = new URL('https://pub.example/llms.txt');
  it('maps statuses', async () => {
    expect(kindOf(await classify(c, new Response('# x\n', { status: 200 }), at, 0))).toBe('ok/');
    expect(kindOf(await classify(c, new Response('<!doctype html><p>x', { status: 200, headers: { 'Content-Type': 'text/html' } }), at, 0))).toBe('absent/html');
    expect(kindOf(await classify(c, new Response(null, { status: 304 }), at, 0))).toBe('absent/client-error');
    expect(kindOf(await classify(c, new Response('', { status: 404 }), at, 0))).toBe('absent/not-found');
    expect(kindOf(await classify(c, new Response('', { status: 403 }), at, 0))).toBe('absent/forbidden');
    expect(kindOf(await classify(c, new Response('', { status: 503 }), at, 0))).toBe('transient/server-error');
    expect(kindOf(await classify(c, new Response('', { status: 429 }), at, 0))).toBe('transient/rate-limited');
  });
  it('caps the body it reads', async () => {
    const small = ctx('https://pub.example/llms.txt', opts('llms-txt', 'https://pub.example', { cap: 4 }));
    expect(kindOf(await classify(small, new Response('12345', { status: 200 }), at, 0))).toBe('too-large/');
  });
});
