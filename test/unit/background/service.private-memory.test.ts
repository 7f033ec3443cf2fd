// Private windows keep their results in memory only (PRODUCT.md §2.1): with private
// probing on, a probe of a private tab, and what the user decides in a private window, leave the
// IndexedDB store and storage.local exactly as they were; the popup of that window sees them; a
// key pinned in a normal window is still the one a private window compares against, and nothing a
// private window learns reaches the normal windows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { BackgroundService } from '../../../lib/background/service';
import type { TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import type { OriginReport, Settings } from '../../../lib/types';
import { dumpDatabase } from '../../support/trust-store';
import { FakePlatform } from './fake-platform';
import { POPUP, startService } from './service-harness';

const NAME = 'private-memory-test';
const NORMAL_TAB = 4;
const PRIVATE_TAB = 5;

let published: ServedSite;
let server: TestServer;
let platform: FakePlatform;
let service: BackgroundService;
let factory: IDBFactory;
let now: number;

beforeEach(async () => {
  published = await servePublisherSite('skillpin-private-mem-', { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(5) });
  ({ server } = published);
  platform = new FakePlatform();
  factory = new IDBFactory();
  now = Date.parse('2026-11-29T12:00:00Z');
  service = await startService({ platform, name: NAME, indexedDB: factory, now: () => now });
  const settings = await ask<Settings>({ type: 'skillpin:settings-get' });
  await ask({ type: 'skillpin:settings-set', settings: { ...settings, probeInPrivate: true } });
  platform.tabs = [
    { id: NORMAL_TAB, url: server.origin + '/', incognito: false },
    { id: PRIVATE_TAB, url: server.origin + '/docs', incognito: true },
  ];
});

afterEach(async () => {
  await published.close();
});

const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;

const dump = (): Promise<Record<string, unknown[]>> => dumpDatabase(factory, NAME);

const local = (): Record<string, unknown> => structuredClone(Object.fromEntries(platform.local));

async function privateNavigation(): Promise<OriginReport | null> {
  const r = await service.onNavigation(PRIVATE_TAB, server.origin + '/docs', true);
  await service.idle();
  return r;
}

async function approveFrom(sender: object, report: OriginReport): Promise<unknown> {
  const skill = report.skills.find((s) => s.status === 'verified-signed' && s.url && s.actual);
  if (!skill?.url || !skill.actual) throw new Error('no verified skill to approve');
  return ask({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false }, sender);
}

describe('private windows keep their results in memory', () => {
  it('a private tab is probed and the store and storage.local are left exactly as they were', async () => {
    const before = await dump();
    const localBefore = local();
    const report = await privateNavigation();
    expect(report?.state).toBe('done');
    expect(report?.key.state).toBe('pinned-now');
    expect(report?.skills.filter((s) => s.status === 'verified-signed').length).toBeGreaterThan(0);
    expect(server.log.length).toBeGreaterThan(0);
    expect(await dump()).toEqual(before);
    expect(local()).toEqual(localBefore);
    // The private popup sees the report; the private tab has the verdict's badge, the normal tab none.
    // (The toolbar popup is an extension page with no tab of its own; it names the tab it opened over.)
    expect((await ask<OriginReport | null>({ type: 'skillpin:report', origin: server.origin, clickedTab: PRIVATE_TAB }))?.finishedAt).toBe(report?.finishedAt);
    expect(platform.badges.get(PRIVATE_TAB)?.text).toMatch(/^\d+$/);
    expect(platform.badges.get(NORMAL_TAB)?.text ?? '').toBe('');
    // A normal window's popup has no report of the origin: nothing was learned for it.
    platform.tabs = [{ id: NORMAL_TAB, url: server.origin + '/', incognito: false }];
    expect(await ask({ type: 'skillpin:report', origin: server.origin, clickedTab: NORMAL_TAB })).toBeNull();
  });

  it('a key pinned in a normal window is compared against in a private one, which changes nothing stored', async () => {
    const normal = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: NORMAL_TAB });
    expect(normal.key.state).toBe('pinned-now');
    const before = await dump();
    const localBefore = local();
    // Past the quiet revisit window: the private tab is probed, not answered the normal report.
    now += 120_000;
    const priv = await privateNavigation();
    expect(priv?.finishedAt).toBe(now);
    expect(priv?.key.state).toBe('match');
    expect(priv?.key.pinned?.fingerprint).toBe(normal.key.pinned?.fingerprint);
    // Not even the pin's lastSeen or the normal report.
    expect(await dump()).toEqual(before);
    expect(local()).toEqual(localBefore);
  });

  it('an approval made in a private window is kept in memory, for that window only', async () => {
    const priv = await privateNavigation();
    if (!priv) throw new Error('no report');
    const before = await dump();
    const localBefore = local();
    const popup = POPUP;
    // A request naming no tab, about an origin open in a private window, is the private window's.
    platform.tabs = [{ id: PRIVATE_TAB, url: server.origin + '/docs', incognito: true }];
    expect(await approveFrom(popup, priv)).toEqual({ ok: true });
    await service.idle();
    expect(await dump()).toEqual(before);
    // Only the announcement that trust state changed (a kind and a time, nothing of the window) is written.
    const { 'skillpin:state-change': _change, ...rest } = local();
    const { 'skillpin:state-change': _before, ...restBefore } = localBefore;
    expect(rest).toEqual(restBefore);
    const seen = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin }, popup);
    expect(seen.summary.approved).toBe(1);
    // A normal window does not see it.
    platform.tabs = [{ id: NORMAL_TAB, url: server.origin + '/', incognito: false }];
    const normal = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin, tabId: NORMAL_TAB });
    expect(normal.summary.approved).toBe(0);
  });

  it('closing the last private tab forgets what the private windows stored', async () => {
    expect((await privateNavigation())?.state).toBe('done');
    platform.tabs = [{ id: NORMAL_TAB, url: server.origin + '/', incognito: false }];
    service.onTabClosed(PRIVATE_TAB);
    await new Promise((r) => setTimeout(r, 0));
    platform.tabs = [{ id: 6, url: server.origin + '/', incognito: true }];
    expect(await ask({ type: 'skillpin:report', origin: server.origin, clickedTab: 6 })).toBeNull();
  });
});
