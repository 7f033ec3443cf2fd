// Byte caps count decoded bytes, whatever the Content-Encoding (FORMATS.md §9.1). Browsers and
// node's fetch both decode gzip and hand the decoded bytes to the body stream, while
// Content-Length stays the encoded length: the cap is judged on what the stream yields.
// A real loopback server sends the encoded bodies.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import { capFor } from '../../../lib/net/limits';
import type { Clock, DocumentKind, FetchLike } from '../../../lib/types';
import type { BoundedFetchOptions, FetchResult } from '../../../lib/net/fetch-result';
import { startServer, type Route, type TestServer } from '../../support/server';

const realFetch: FetchLike = (url, init) => fetch(url, init);
const clock: Clock = { now: () => Date.now() };
const MiB = 1024 * 1024;

/** Serves `decoded` gzip-encoded, with the encoded length as Content-Length (or none). */
function gzipped(path: string, decoded: Uint8Array, opts: { length?: 'encoded' | 'omit' | number } = {}): Route {
  const encoded = gzipSync(decoded, { level: 9 });
  return (_req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (url.pathname !== path) return false;
    const headers: Record<string, string> = { 'Content-Type': 'text/markdown', 'Content-Encoding': 'gzip' };
    const length = opts.length ?? 'encoded';
    if (length === 'encoded') headers['Content-Length'] = String(encoded.byteLength);
    else if (typeof length === 'number') headers['Content-Length'] = String(length);
    res.writeHead(200, headers);
    res.end(encoded);
    return true;
  };
}

// Random bytes do not compress: their gzip encoding is a little longer than they are.
const incompressibleAtCap = new Uint8Array(randomBytes(capFor('skill-md')));
const incompressibleSmall = new Uint8Array(randomBytes(100));
const bomb = new Uint8Array(8 * MiB).fill(0x20);
const justOver = new Uint8Array(capFor('skill-md') + 1).fill(0x61);

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    files: {},
    routes: [
      gzipped('/at-cap.md', incompressibleAtCap),
      gzipped('/small.md', incompressibleSmall),
      gzipped('/bomb.md', bomb),
      gzipped('/bomb-chunked.md', bomb, { length: 'omit' }),
      gzipped('/just-over.md', justOver),
    ],
  });
});

afterAll(async () => {
  await server.close();
});

function get(path: string, kind: DocumentKind, extra: Partial<BoundedFetchOptions> = {}): Promise<FetchResult> {
  return fetchBounded(realFetch, server.url(path), { kind, origin: server.origin, clock, ...extra });
}

describe('fetchBounded: caps on decoded bytes under Content-Encoding gzip', () => {
  it('the test server really sends an encoded length over the cap for a body at the cap', () => {
    expect(gzipSync(incompressibleAtCap, { level: 9 }).byteLength).toBeGreaterThan(capFor('skill-md'));
  });

  it('hands back the decoded bytes (what is hashed is what the browser yields)', async () => {
    const r = await get('/small.md', 'skill-md');
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(Buffer.from(r.bytes).equals(Buffer.from(incompressibleSmall))).toBe(true);
  });

  it('a body of exactly the cap whose encoded Content-Length is over the cap is accepted', async () => {
    const r = await get('/at-cap.md', 'skill-md');
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') {
      expect(r.bytes.byteLength).toBe(capFor('skill-md'));
      expect(Buffer.from(r.bytes).equals(Buffer.from(incompressibleAtCap))).toBe(true);
    }
  });

  it('the same with a small explicit cap', async () => {
    const r = await get('/small.md', 'skill-md', { cap: 100 });
    expect(r.kind).toBe('ok');
  });

  it('a small gzip body that inflates past the cap is too-large (declared length under the cap)', async () => {
    const r = await get('/bomb.md', 'skill-md');
    expect(r).toMatchObject({ kind: 'too-large', limit: capFor('skill-md') });
  });

  it('a gzip bomb without Content-Length is too-large', async () => {
    const r = await get('/bomb-chunked.md', 'index');
    expect(r).toMatchObject({ kind: 'too-large', limit: capFor('index') });
  });

  it('one decoded byte over the cap is too-large, though the encoded body is tiny', async () => {
    const r = await get('/just-over.md', 'skill-md');
    expect(r).toMatchObject({ kind: 'too-large', limit: capFor('skill-md') });
  });
});
