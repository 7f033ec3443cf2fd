// The request budget and the probe cache (PRODUCT.md §2.2–2.4, FORMATS.md §9.2, §9.6),
// counted from the loopback server's request log under a fake clock.
import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serversClosedAfterEach } from '../../support/test-servers';
import { harness } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const HOUR = 3600_000;
const serve = serversClosedAfterEach();

const K = keyPair(7);
const SITE = buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K });

function failWith(status: number, match: (path: string) => boolean) {
  return (req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    if (!match(url.pathname)) return false;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end('failure');
    return true;
  };
}

describe('silent origin budget', () => {
  it('costs 3 requests, then none for 24 h, then 3 again', async () => {
    const s = await serve({});
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(s.log.map((l) => l.path).sort()).toEqual(['/.well-known/agent-skills/index.json', '/.well-known/skills/index.json', '/llms.txt']);
    expect(r.publishes).toBe(false);
    expect(r.skills).toEqual([]);
    expect(r.diagnostics.some((d) => d.code === 'no-discovery-documents')).toBe(true);

    h.clock.advance(23 * HOUR);
    const again = await h.probe(s.origin);
    expect(s.log).toHaveLength(3);
    expect(again.sources.every((x) => x.outcome === 'cached' && x.fromCache)).toBe(true);

    h.clock.advance(2 * HOUR);
    await h.probe(s.origin);
    expect(s.log).toHaveLength(6);
  });

  it('HTML soft 404s and 403 count as absent', async () => {
    const html = '<!doctype html><html><body>Not here</body></html>';
    const s = await serve({ files: { '/llms.txt': html }, routes: [failWith(403, (p) => p.includes('index.json'))] });
    s.options.files = { '/llms.txt': html };
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.sources.map((x) => x.outcome)).toEqual(['absent', 'absent', 'absent']);
    expect(r.publishes).toBe(false);
    expect(s.log).toHaveLength(3);
  });

  it('the legacy index is not probed when the setting is off', async () => {
    const s = await serve({});
    const h = await harness(undefined, { legacyIndex: false });
    await h.probe(s.origin);
    expect(s.log.map((l) => l.path).sort()).toEqual(['/.well-known/agent-skills/index.json', '/llms.txt']);
  });

  it('the legacy index is not probed when the current index is invalid or transient', async () => {
    const s = await serve({ files: { '/.well-known/agent-skills/index.json': '{"skills": 3}' } });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(s.log.some((l) => l.path === '/.well-known/skills/index.json')).toBe(false);
    expect(r.sources.find((x) => x.kind === 'index')?.outcome).toBe('invalid');
    expect(r.diagnostics.some((d) => d.code === 'index-invalid')).toBe(true);

    const t = await serve({ routes: [failWith(503, (p) => p === '/.well-known/agent-skills/index.json')] });
    const h2 = await harness();
    const r2 = await h2.probe(t.origin);
    expect(t.log.some((l) => l.path === '/.well-known/skills/index.json')).toBe(false);
    expect(r2.sources.find((x) => x.kind === 'index')?.outcome).toBe('transient');
  });

  it('the legacy index is used when the current one is absent', async () => {
    const files = buildSite({ skills: [{ name: 'alpha', inline: false }], key: null, llms: false });
    const legacy = files['/.well-known/agent-skills/index.json'] as string;
    delete files['/.well-known/agent-skills/index.json'];
    files['/.well-known/skills/index.json'] = legacy;
    const s = await serve({ files });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.skills.map((k) => [k.status, k.sources])).toEqual([['verified', ['legacy-index']]]);
    expect(r.diagnostics.some((d) => d.code === 'legacy-index-used')).toBe(true);
  });

  it('an llms.txt over 1 MiB is dropped and reported too-large', async () => {
    const big = '# x\n\n## Skills\n\n' + 'a'.repeat(1024 * 1024 + 10);
    const s = await serve({ files: { '/llms.txt': big } });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.sources.find((x) => x.kind === 'llms-txt')?.outcome).toBe('too-large');
    expect(r.diagnostics.some((d) => d.code === 'document-too-large')).toBe(true);
  });
});

describe('positive cache', () => {
  it('revisit within the TTL makes no request; after it, a conditional request and a 304 with no body re-downloaded and no re-verification', async () => {
    const s = await serve({ files: SITE, cacheControl: 'max-age=600' });
    const h = await harness();
    const first = await h.probe(s.origin);
    expect(first.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    const firstCount = s.log.length;
    expect(firstCount).toBe(5); // llms.txt, index, .pub, 2 SKILL.md

    h.clock.advance(5 * 60_000);
    const cached = await h.probe(s.origin);
    expect(s.log.length).toBe(firstCount);
    expect(cached.skills.map((k) => [k.status, k.fromStore])).toEqual([
      ['verified-signed', true],
      ['verified-signed', true],
    ]);
    expect(cached.sources.every((x) => x.fromCache)).toBe(true);

    h.clock.advance(6 * 60_000);
    const revalidated = await h.probe(s.origin);
    const later = s.log.slice(firstCount);
    expect(later.map((l) => l.path).sort()).toEqual(['/.well-known/agent-skills/index.json', '/.well-known/agent-skills/signing-key.pub', '/llms.txt']);
    for (const l of later) {
      expect(l.status).toBe(304);
      expect(l.bytes).toBe(0);
      expect(l.headers['if-none-match']).toMatch(/^"/);
    }
    expect(revalidated.sources.map((x) => x.outcome)).toEqual(['not-modified', 'not-modified', 'not-modified']);
    expect(revalidated.skills.map((k) => [k.status, k.fromStore])).toEqual([
      ['verified-signed', true],
      ['verified-signed', true],
    ]);
    // The 304 refreshed the expiry: within the next 10 minutes nothing is asked again.
    h.clock.advance(9 * 60_000);
    await h.probe(s.origin);
    expect(s.log.length).toBe(firstCount + 3);
  });

  it('a missing Cache-Control gets the 5-minute floor; a huge max-age is clamped to 24 h', async () => {
    const s = await serve({ files: SITE });
    const h = await harness();
    await h.probe(s.origin);
    const n = s.log.length;
    h.clock.advance(5 * 60_000 + 1);
    await h.probe(s.origin);
    expect(s.log.length).toBeGreaterThan(n);

    const t = await serve({ files: SITE, cacheControl: 'max-age=31536000' });
    const h2 = await harness();
    await h2.probe(t.origin);
    const m = t.log.length;
    h2.clock.advance(23 * HOUR);
    await h2.probe(t.origin);
    expect(t.log.length).toBe(m);
    h2.clock.advance(2 * HOUR);
    await h2.probe(t.origin);
    expect(t.log.length).toBeGreaterThan(m);
  });

  it('force re-probes at once (with validators) and re-fetches artifacts', async () => {
    const s = await serve({ files: SITE, cacheControl: 'max-age=3600' });
    const h = await harness();
    await h.probe(s.origin);
    const n = s.log.length;
    const r = await h.probe(s.origin, { force: true });
    const later = s.log.slice(n);
    expect(later.filter((l) => l.path.endsWith('SKILL.md'))).toHaveLength(2);
    expect(later.filter((l) => !l.path.endsWith('SKILL.md')).every((l) => l.status === 304)).toBe(true);
    expect(r.skills.every((k) => k.status === 'verified-signed')).toBe(true);
  });
});

describe('transient failures keep the last good state', () => {
  it('a 503 on the discovery documents keeps the last good bytes, records failures and backs off', async () => {
    const s = await serve({ files: SITE });
    const h = await harness();
    const good = await h.probe(s.origin);
    expect(good.skills.every((k) => k.status === 'verified-signed')).toBe(true);

    s.options.routes = [failWith(503, () => true)];
    h.clock.advance(10 * 60_000);
    const n = s.log.length;
    const r = await h.probe(s.origin);
    expect(r.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    expect(r.sources.filter((x) => x.kind !== 'signing-key').map((x) => x.outcome)).toEqual(['transient', 'transient']);
    expect(r.diagnostics.filter((d) => d.code === 'document-stale').length).toBeGreaterThanOrEqual(2);
    const entry = await h.store.getCache(s.origin + '/llms.txt');
    expect(entry?.failures).toBe(1);
    expect(entry?.retryAt).toBeGreaterThan(h.clock.now());
    expect(entry?.bytes).not.toBeNull();
    const afterFailure = s.log.length;
    expect(afterFailure).toBeGreaterThan(n);

    // Within the backoff window nothing is requested again, and the state is still the good one.
    h.clock.advance(30_000);
    const backoff = await h.probe(s.origin);
    expect(s.log.length).toBe(afterFailure);
    expect(backoff.skills.every((k) => k.status === 'verified-signed')).toBe(true);
    expect(backoff.diagnostics.some((d) => d.code === 'document-backoff')).toBe(true);

    // After the window, the next failure doubles the wait.
    h.clock.advance(60_000);
    await h.probe(s.origin);
    const second = await h.store.getCache(s.origin + '/llms.txt');
    expect(second?.failures).toBe(2);
    expect((second?.retryAt ?? 0) - h.clock.now()).toBe(2 * 60_000);

    // Recovery clears the failures.
    s.options.routes = [];
    h.clock.advance(3 * 60_000);
    const back = await h.probe(s.origin);
    expect(back.skills.every((k) => k.status === 'verified-signed')).toBe(true);
    expect((await h.store.getCache(s.origin + '/llms.txt'))?.failures).toBe(0);
  });

  it('Retry-After lengthens the backoff', async () => {
    const s = await serve({
      routes: [
        (req, res) => {
          res.writeHead(429, { 'retry-after': '7200' });
          res.end();
          return true;
        },
      ],
    });
    const h = await harness();
    await h.probe(s.origin);
    const entry = await h.store.getCache(s.origin + '/llms.txt');
    expect(entry?.retryAt).toBe(h.clock.now() + 2 * HOUR);
    expect(entry?.positive).toBe(false);
  });

  it('a transient failure with nothing stored is unavailable, not absent, and not cached for 24 h', async () => {
    const s = await serve({ routes: [failWith(500, () => true)] });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.diagnostics.filter((d) => d.code === 'document-unavailable')).toHaveLength(2);
    expect(r.diagnostics.some((d) => d.code === 'no-discovery-documents')).toBe(false);
    s.options.routes = [];
    s.options.files = SITE;
    h.clock.advance(2 * 60_000);
    const ok = await h.probe(s.origin);
    expect(ok.skills).toHaveLength(2);
  });

  it('an artifact that fails transiently keeps its last stored bytes; with none stored it is fetch-failed', async () => {
    const files = buildSite({ skills: [{ name: 'plain', inline: false, index: false }], key: null, index: false });
    const s = await serve({ files });
    const h = await harness();
    const first = await h.probe(s.origin);
    expect(first.skills[0]?.status).toBe('unverified');
    s.options.routes = [failWith(502, (p) => p.endsWith('SKILL.md'))];
    h.clock.advance(HOUR);
    const r = await h.probe(s.origin);
    expect(r.skills[0]?.status).toBe('unverified');
    expect(r.skills[0]?.fromStore).toBe(true);
    expect(r.skills[0]?.diagnostics.some((d) => d.code === 'artifact-stale')).toBe(true);

    const t = await serve({ files: SITE, routes: [failWith(503, (p) => p.endsWith('SKILL.md'))] });
    const h2 = await harness();
    const r2 = await h2.probe(t.origin);
    expect(r2.skills.map((k) => [k.status, k.statusCode])).toEqual([
      ['fetch-failed', 'fetch-transient'],
      ['fetch-failed', 'fetch-transient'],
    ]);
  });

  it('an unverified artifact is revalidated after its TTL: 304 keeps the stored bytes', async () => {
    const files = buildSite({ skills: [{ name: 'plain', inline: false, index: false }], key: null, index: false });
    const s = await serve({ files });
    const h = await harness();
    await h.probe(s.origin);
    h.clock.advance(HOUR);
    const n = s.log.length;
    const r = await h.probe(s.origin);
    const skillReq = s.log.slice(n).find((l) => l.path.endsWith('SKILL.md'));
    expect(skillReq?.status).toBe(304);
    expect(r.skills[0]).toMatchObject({ status: 'unverified', fromStore: true });
  });
});

describe('artifacts', () => {
  it('a declared digest already verified is not fetched again, even after the discovery cache expired', async () => {
    const s = await serve({ files: SITE });
    const h = await harness();
    await h.probe(s.origin);
    await h.store.deleteCacheForOrigin(s.origin);
    const n = s.log.length;
    const r = await h.probe(s.origin);
    expect(s.log.slice(n).some((l) => l.path.endsWith('SKILL.md'))).toBe(false);
    expect(r.skills.every((k) => k.fromStore && k.status === 'verified-signed')).toBe(true);
  });

  it('an HTML soft 404 for SKILL.md is fetch-failed', async () => {
    const files = buildSite({ skills: [{ name: 'alpha' }], key: null });
    files['/skills/alpha/SKILL.md'] = '<!DOCTYPE html><html><body>app shell</body></html>';
    const s = await serve({ files });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect([r.skills[0]?.status, r.skills[0]?.statusCode]).toEqual(['fetch-failed', 'fetch-html']);
  });

  it('fetches at most 64 skills per origin, at most 6 at a time from one host', async () => {
    const skills = Array.from({ length: 70 }, (_, i) => ({ name: `s${String(i).padStart(2, '0')}`, index: false }));
    const files = buildSite({ skills, key: null, index: false });
    let inFlight = 0;
    let maxInFlight = 0;
    const s = await serve({
      files,
      routes: [
        async (req, res, url) => {
          if (!url.pathname.endsWith('SKILL.md')) return false;
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 5));
          inFlight -= 1;
          const body = files[url.pathname];
          res.writeHead(200, { 'content-type': 'text/markdown' });
          res.end(body);
          return true;
        },
      ],
    });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.skills).toHaveLength(70);
    expect(s.log.filter((l) => l.path.endsWith('SKILL.md'))).toHaveLength(64);
    expect(r.skills.filter((k) => k.statusCode === 'skill-limit')).toHaveLength(6);
    expect(r.skills.filter((k) => k.status === 'verified')).toHaveLength(64);
    expect(maxInFlight).toBeLessThanOrEqual(6);
    expect(maxInFlight).toBeGreaterThan(1);
  });

  it('an artifact redirecting to a private host from a public origin is refused (url-blocked)', async () => {
    const s = await serve({
      routes: [
        (req, res, url) => {
          if (url.pathname !== '/skills/alpha/SKILL.md') return false;
          res.writeHead(302, { location: 'http://10.0.0.1/x' });
          res.end();
          return true;
        },
      ],
    });
    const text = '- [alpha](https://pub.example/skills/alpha/SKILL.md): a skill\n';
    s.options.files = { '/llms.txt': `# t\n\n## Skills\n\n${text}` };
    const fetchMapped: typeof fetch = (input, init) => fetch(String(input).replace('https://pub.example', s.origin), init);
    const h = await harness((u, i) => fetchMapped(u, i));
    const r = await h.probe('https://pub.example');
    expect([r.skills[0]?.status, r.skills[0]?.statusCode]).toEqual(['invalid', 'url-blocked']);
  });
});
