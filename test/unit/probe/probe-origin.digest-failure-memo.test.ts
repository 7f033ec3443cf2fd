// An artifact whose bytes failed their declared digest is remembered in its probe-cache entry
// (declared digests, actual digests, the validators it came with), so the next probe does not
// download it again: no request while the entry is fresh, a conditional request (304, no body)
// after it expires, a full download only without validators. The report still says
// digest-mismatch each time, and nothing is stored.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendBytes, startServer, type TestServer } from '../../support/server';
import { harness, skill, type Harness } from '../../support/engine-harness';
import type { FetchLike } from '../../../lib/types';

const MINUTE = 60_000;
const enc = new TextEncoder();
const hex = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

const SERVED = enc.encode('---\nname: bad\ndescription: Served bytes that match nothing declared.\n---\nBody.\n');
const FIXED = enc.encode('---\nname: bad\ndescription: The bytes the index declares.\n---\nBody.\n');

interface Site {
  body: Uint8Array;
  declared: string;
  /** Cache-Control of the SKILL.md; the index always gets the 5-minute floor. */
  skillCacheControl?: string;
  /** Serve the SKILL.md without ETag and Last-Modified. */
  noValidators?: boolean;
}

let server: TestServer;
let site: Site;
let h: Harness & { fetch: FetchLike };

function skillRoute(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (url.pathname !== '/skills/bad/SKILL.md') return false;
  if (site.noValidators) {
    res.writeHead(200, { 'Content-Type': 'text/markdown', 'Content-Length': String(site.body.byteLength) });
    res.end(site.body);
    return true;
  }
  sendBytes(req, res, site.body, 'text/markdown', site.skillCacheControl ? { cacheControl: site.skillCacheControl } : {});
  return true;
}

function indexRoute(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (url.pathname !== '/.well-known/agent-skills/index.json') return false;
  const doc = { skills: [{ name: 'bad', type: 'skill-md', description: 'A skill.', url: '/skills/bad/SKILL.md', digest: `sha256:${site.declared}` }] };
  sendBytes(req, res, enc.encode(JSON.stringify(doc)), 'application/json');
  return true;
}

beforeEach(async () => {
  site = { body: SERVED, declared: hex(FIXED) };
  server = await startServer({ files: {}, routes: [skillRoute, indexRoute] });
  h = await harness();
});

afterEach(async () => {
  h.store.close();
  await server.close();
});

const skillGets = () => server.log.filter((r) => r.path === '/skills/bad/SKILL.md');

async function probe(opts: { force?: boolean } = {}) {
  const report = await h.probe(server.origin, opts);
  return { report, s: skill(report, 'bad') };
}

describe('an artifact whose digest failed', () => {
  it('is not downloaded again while its cache entry is fresh, and still shows digest-mismatch', async () => {
    const first = await probe();
    expect(first.s.status).toBe('digest-mismatch');
    expect(skillGets().map((r) => r.status)).toEqual([200]);

    h.clock.advance(MINUTE);
    const second = await probe();
    expect(second.s.status).toBe('digest-mismatch');
    expect(second.s.statusCode).toBe('digest-mismatch');
    expect(second.s.actual).toBeNull();
    expect(second.s.diagnostics.map((d) => d.code)).toContain('artifact-mismatch-remembered');
    expect(skillGets()).toHaveLength(1);
    expect(await h.store.getLatestSkill(server.origin, server.url('/skills/bad/SKILL.md'))).toBeNull();
  });

  it('after the entry expires, is revalidated: a 304 keeps the failure without a body', async () => {
    await probe();
    h.clock.advance(6 * MINUTE);
    const again = await probe();
    expect(again.s.status).toBe('digest-mismatch');
    const gets = skillGets();
    expect(gets.map((r) => r.status)).toEqual([200, 304]);
    expect(gets[1]!.headers['if-none-match']).toBeTypeOf('string');
    // The 304 refreshed the window: the next probe soon after asks nothing.
    h.clock.advance(MINUTE);
    expect((await probe()).s.status).toBe('digest-mismatch');
    expect(skillGets()).toHaveLength(2);
  });

  it('new bytes behind the validators are downloaded and verified', async () => {
    await probe();
    site.body = FIXED;
    h.clock.advance(6 * MINUTE);
    const fixed = await probe();
    expect(fixed.s.status).toBe('verified');
    expect(skillGets().map((r) => r.status)).toEqual([200, 200]);
  });

  it('other declared digests (the listing changed) are checked at once', async () => {
    site.skillCacheControl = 'max-age=3600';
    await probe();
    site.declared = hex(SERVED);
    // The index entry (5 minutes) has expired, the SKILL.md entry (1 hour) has not.
    h.clock.advance(6 * MINUTE);
    const relisted = await probe();
    expect(relisted.s.status).toBe('verified');
    expect(skillGets()).toHaveLength(2);
  });

  it('without validators, the freshness window is the back-off; then a full download', async () => {
    site.noValidators = true;
    await probe();
    h.clock.advance(MINUTE);
    expect((await probe()).s.status).toBe('digest-mismatch');
    expect(skillGets()).toHaveLength(1);
    h.clock.advance(5 * MINUTE);
    expect((await probe()).s.status).toBe('digest-mismatch');
    const gets = skillGets();
    expect(gets).toHaveLength(2);
    expect(gets[1]!.headers['if-none-match']).toBeUndefined();
  });

  it('a re-check asks again, with validators', async () => {
    await probe();
    h.clock.advance(MINUTE);
    const forced = await probe({ force: true });
    expect(forced.s.status).toBe('digest-mismatch');
    expect(skillGets().map((r) => r.status)).toEqual([200, 304]);
  });
});
