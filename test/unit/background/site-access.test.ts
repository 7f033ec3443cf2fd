// Site access the user limits (PRODUCT.md §2.1): the browser's answer decides, asked once per
// origin until the permissions change; without access no request is made, the report says so, and
// what was stored for the origin stays for when access comes back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siteAccess, type AccessSource } from '../../../lib/background/site-access';
import type { BackgroundService } from '../../../lib/background/service';
import type { SiteAccessSummary } from '../../../lib/messages';
import type { OriginReport } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { buildSite, keyPair } from '../../support/signed-sites';
import { RulesPlatform } from './fake-platform';
import { OPTIONS_PAGE, POPUP, startService } from './service-harness';

class Source implements AccessSource {
  granted: string[] = [];
  asked: string[][] = [];
  async contains(patterns: string[]) {
    this.asked.push(patterns);
    return patterns.every((p) => this.granted.includes(p));
  }
  async grantedOrigins() {
    return this.granted;
  }
}

describe('siteAccess', () => {
  it('every site when the manifest host permissions are granted, asked once', async () => {
    const src = new Source();
    src.granted = ['http://*/*', 'https://*/*'];
    const access = siteAccess(src);
    expect(await access.mayRead('https://docs.example')).toBe(true);
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(true);
    expect(src.asked).toEqual([['http://*/*', 'https://*/*']]);
    expect(await access.summary()).toEqual({ all: true, sites: [] });
  });

  it('one site granted: its pattern (any port), nothing else; kept until the permissions change', async () => {
    const src = new Source();
    src.granted = ['http://127.0.0.1/*'];
    const access = siteAccess(src);
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(true);
    expect(await access.mayRead('https://docs.example')).toBe(false);
    expect(await access.summary()).toEqual({ all: false, sites: ['http://127.0.0.1/*'] });
    src.granted = [];
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(true);
    access.changed();
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(false);
  });

  it('a toolbar click grants its tab\'s origin until the tab leaves it or closes (Chrome\'s "On click")', async () => {
    const access = siteAccess(new Source());
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(false);
    access.clicked(4, 'http://127.0.0.1:8080');
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(true);
    expect(await access.mayRead('http://127.0.0.1:9090')).toBe(false);
    access.navigated(4, 'http://127.0.0.1:8080/next');
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(true);
    access.navigated(4, 'https://elsewhere.example/');
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(false);
    access.clicked(5, 'http://127.0.0.1:8080');
    access.tabClosed(5);
    expect(await access.mayRead('http://127.0.0.1:8080')).toBe(false);
  });

  it('a browser that cannot answer reads nothing; without a source (node) everything', async () => {
    const broken = siteAccess({ contains: () => Promise.reject(new Error('no')), grantedOrigins: () => Promise.reject(new Error('no')) });
    expect(await broken.mayRead('https://docs.example')).toBe(false);
    expect(await siteAccess(undefined).mayRead('https://docs.example')).toBe(true);
  });
});

describe('the background without site access', () => {
  let server: TestServer;
  let platform: RulesPlatform;
  let service: BackgroundService;
  let now: number;
  const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;

  beforeEach(async () => {
    server = await startServer({ files: buildSite({ skills: [{ name: 'alpha' }], key: keyPair(91) }) });
    platform = new RulesPlatform();
    now = Date.parse('2026-11-29T12:00:00Z');
    service = await startService({ platform, name: `site-access-${Math.random()}`, now: () => now });
  });
  afterEach(async () => {
    await server.close();
  });

  it('says it cannot read the site, keeps what it stored, and probes at once when access is granted', async () => {
    const first = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(first.skills).toHaveLength(1);
    // The user sets site access to "On click": nothing is granted.
    platform.granted = [];
    await service.onAccessChanged([]);
    const requests = server.log.length;
    expect(await service.onNavigation(2, `${server.origin}/docs`, false)).toBeNull();
    expect(platform.badges.get(2)?.title).toMatch(/no site access/);
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access', publishes: false });
    expect(await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access' });
    expect(server.log.length).toBe(requests);
    expect(await ask<SiteAccessSummary>({ type: 'skillpin:site-access', origin: server.origin }, OPTIONS_PAGE)).toEqual({
      all: false,
      sites: [],
      origin: { origin: server.origin, readable: false },
    });
    // The popup's "Allow on this site": the browser grants the pattern and tells the background.
    platform.granted = ['http://127.0.0.1/*'];
    platform.active = [{ id: 2, url: `${server.origin}/docs`, incognito: false }];
    now += 60_000;
    await service.onAccessChanged(['http://127.0.0.1/*']);
    await service.idle();
    const back = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin });
    // Probed just now (from its fresh cache: the documents are still within their lifetime).
    expect(back).toMatchObject({ state: 'done', finishedAt: now });
    expect(back.skills.map((s) => s.status)).toEqual(first.skills.map((s) => s.status));
  });
});
