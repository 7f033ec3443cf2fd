// A probe asked for by the popup honours the private-window rule (PRODUCT.md §2.1): the
// background judges by the tab's private flag as the browser lists it, through the real
// message path (handleMessage → parseRequest → the probe handler), and a refused probe makes no
// request and stores nothing: no report, no cache entry, no bytes, no first pin.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { BackgroundService } from '../../../lib/background/service';
import { isPrivateRequest } from '../../../lib/background/private-request';
import { openTrustStore } from '../../../lib/store/idb-store';
import type { TrustStore } from '../../../lib/store/store-api';
import type { TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import type { OriginReport, Pin, Settings } from '../../../lib/types';
import { FakePlatform } from './fake-platform';
import { EXT, POPUP, startService } from './service-harness';

/** Tabs the test lists, and a tab listing that can fail. */
class TabsPlatform extends FakePlatform {
  listFails = false;
  override async listTabs() {
    if (this.listFails) throw new Error('tabs unavailable');
    return this.tabs;
  }
}

let published: ServedSite;
let server: TestServer;
let platform: TabsPlatform;
let service: BackgroundService;
let factory: IDBFactory;

beforeEach(async () => {
  published = await servePublisherSite('skillpin-private-', { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(3) });
  ({ server } = published);
  platform = new TabsPlatform();
  factory = new IDBFactory();
  service = await startService({ platform, name: 'private-test', indexedDB: factory });
});

afterEach(async () => {
  await published.close();
});

const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;

/** Everything the store holds about the origin, read through a second connection. */
async function storedFor(origin: string): Promise<{ report: OriginReport | null; pins: Pin[]; cache: number; skills: number }> {
  const store: TrustStore = await openTrustStore({ name: 'private-test', indexedDB: factory });
  try {
    const state = await store.getOriginState(origin);
    return { report: await store.getReport(origin), pins: await store.listPins(), cache: state.cache.length, skills: state.skills.length };
  } finally {
    store.close();
  }
}

async function expectNothing(): Promise<void> {
  expect(server.log).toEqual([]);
  expect(await storedFor(server.origin)).toEqual({ report: null, pins: [], cache: 0, skills: 0 });
}

describe('popup probe in a private window', () => {
  it('the popup of a private tab on an unprobed origin: skipped, no request, nothing stored', async () => {
    platform.tabs = [{ id: 5, url: server.origin + '/docs', incognito: true }];
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 5 });
    expect(report).toMatchObject({ state: 'skipped', skippedBecause: 'private-window', skills: [] });
    await expectNothing();
    // The report the popup asks for first is still none.
    expect(await ask({ type: 'skillpin:report', origin: server.origin })).toBeNull();
  });

  it('probes once private probing is on', async () => {
    platform.tabs = [{ id: 5, url: server.origin + '/', incognito: true }];
    const settings = await ask<Settings>({ type: 'skillpin:settings-get' });
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, probeInPrivate: true } });
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 5 });
    expect(report.state).toBe('done');
    expect(report.skills.length).toBeGreaterThan(0);
    expect(server.log.length).toBeGreaterThan(0);
  });

  it('the popup of a normal tab probes as before', async () => {
    platform.tabs = [
      { id: 4, url: server.origin + '/', incognito: false },
      { id: 5, url: server.origin + '/', incognito: true },
    ];
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 4 });
    expect(report.state).toBe('done');
  });

  it('a request that names no tab, for an origin open only in a private window, is refused', async () => {
    platform.tabs = [
      { id: 2, url: 'https://elsewhere.example/', incognito: false },
      { id: 5, url: server.origin + '/', incognito: true },
    ];
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'private-window' });
    await expectNothing();
  });

  it('a named normal tab that does not show the origin does not vouch for it', async () => {
    platform.tabs = [
      { id: 2, url: 'https://elsewhere.example/', incognito: false },
      { id: 5, url: server.origin + '/', incognito: true },
    ];
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 2 })).toMatchObject({ skippedBecause: 'private-window' });
    await expectNothing();
  });

  it('the popup page opened in a private tab (sender.tab) is refused, whatever tab it names', async () => {
    platform.tabs = [
      { id: 4, url: server.origin + '/', incognito: false },
      { id: 9, url: `${EXT}popup.html?origin=x`, incognito: true },
    ];
    const inPrivateTab = { ...POPUP, tab: { id: 9, url: `${EXT}popup.html`, incognito: true } };
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 4 }, inPrivateTab)).toMatchObject({ skippedBecause: 'private-window' });
    // The browser's tab list decides even when the sender record has no flag.
    const noFlag = { ...POPUP, tab: { id: 9, url: `${EXT}popup.html` } };
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 4 }, noFlag)).toMatchObject({ skippedBecause: 'private-window' });
    await expectNothing();
  });

  it('when the tabs cannot be listed, no probe is made', async () => {
    platform.listFails = true;
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: 5 })).toMatchObject({ skippedBecause: 'private-window' });
    await expectNothing();
  });

  it('refuses a malformed tab id', async () => {
    expect(await ask({ type: 'skillpin:probe', origin: server.origin, tabId: 'five' })).toMatchObject({ ok: false, error: 'bad-request' });
    expect(await ask({ type: 'skillpin:probe', origin: server.origin, tabId: -1 })).toMatchObject({ ok: false, error: 'bad-request' });
    expect(server.log).toEqual([]);
  });
});

describe('other requests that would make the first probe of an origin', () => {
  const URL_OF = (): string => `${server.origin}/.well-known/agent-skills/search-docs/SKILL.md`;
  it.each([
    ['approve', () => ({ type: 'skillpin:approve', origin: server.origin, url: URL_OF(), digestLf: 'a'.repeat(64), confirmUnverified: false, confirmCrossOrigin: false })],
    ['trust-key', () => ({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: null, newFingerprint: 'SHA256:x' })],
    ['skill-context', () => ({ type: 'skillpin:skill-context', origin: server.origin, url: URL_OF() })],
  ])('%s on an origin open only in a private window makes no request and stores nothing', async (_name, msg) => {
    platform.tabs = [{ id: 5, url: server.origin + '/', incognito: true }];
    const answer = await ask<{ ok?: boolean; error?: string }>(msg());
    expect(answer.ok).toBe(false);
    expect(answer.error).not.toBe('bad-request');
    await expectNothing();
  });

  it('a menu click in a private tab on an unprobed origin makes no request', async () => {
    platform.tabs = [{ id: 5, url: server.origin + '/', incognito: true }];
    expect(await service.onMenuClick('skillpin-copy', { id: 5, url: server.origin + '/', incognito: true })).toBe(false);
    await expectNothing();
  });
});

describe('isPrivateRequest', () => {
  const O = 'https://a.example';
  it('an origin open nowhere, asked without a tab (the options page), is not private', () => {
    expect(isPrivateRequest([], O, undefined, POPUP)).toBe(false);
  });
  it('a named tab that is gone falls back to the tabs showing the origin', () => {
    expect(isPrivateRequest([{ id: 3, url: `${O}/x`, incognito: true }], O, 7, POPUP)).toBe(true);
    expect(isPrivateRequest([{ id: 3, url: `${O}/x`, incognito: false }], O, 7, POPUP)).toBe(false);
  });
});
