// The background keeps the settings in memory: read from the store once, read again after
// settings-set writes them, and read again by a new service (a restarted worker).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createBackgroundService, type BackgroundPlatform, type BackgroundService } from '../../../lib/background/service';
import { openTrustStore } from '../../../lib/trust/idb-store';
import type { TrustStore } from '../../../lib/trust/store-api';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';

const EXT = 'chrome-extension://abcdefghijklmnop/';
const POPUP = { id: 'ext-id', url: `${EXT}popup.html`, origin: 'chrome-extension://abcdefghijklmnop' };

const platform: BackgroundPlatform = {
  setBadge: async () => undefined,
  notify: async () => undefined,
  listTabs: async () => [],
  frameUrl: async () => null,
  sendToFrame: async () => undefined,
  copyText: async () => false,
  updateMenus: async () => undefined,
  getLocal: async () => undefined,
  setLocal: async () => undefined,
};

let server: TestServer;
let factory: IDBFactory;
let reads: number;
let failReads: boolean;

/** The real store, counting getSettings (and failing it on demand). */
function counting(store: TrustStore): TrustStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'getSettings') {
        return () => {
          reads += 1;
          return failReads ? Promise.reject(new Error('settings unreadable')) : target.getSettings();
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

async function makeService(): Promise<BackgroundService> {
  const s = createBackgroundService({
    openStore: async () => counting(await openTrustStore({ name: 'settings-cache', indexedDB: factory })),
    fetch: (url, init) => fetch(url, init),
    clock: { now: () => Date.parse('2026-11-29T12:00:00Z') },
    platform,
    runtimeId: 'ext-id',
    extensionBase: EXT,
    version: '0.1.0',
  });
  await s.ready;
  return s;
}

beforeEach(async () => {
  server = await startServer({});
  factory = new IDBFactory();
  reads = 0;
  failReads = false;
});
afterEach(async () => {
  await server.close();
});

describe('settings kept in memory by the background', () => {
  it('a navigation reads the settings at most once; later navigations not at all', async () => {
    const service = await makeService();
    await service.onNavigation(1, server.origin + '/', false);
    expect(reads).toBe(1);
    await service.onNavigation(1, server.origin + '/a', false);
    await service.onNavigation(2, server.origin + '/b', false);
    expect(reads).toBe(1);
  });

  it('settings-set is seen by the next navigation and the next settings-get', async () => {
    const service = await makeService();
    const ask = (m: unknown): Promise<unknown> => service.handleMessage(m, POPUP);
    const settings = (await ask({ type: 'skillpin:settings-get' })) as Settings;
    expect(await ask({ type: 'skillpin:settings-set', settings: { ...settings, paused: true } })).toEqual({ ok: true });
    expect(await service.onNavigation(1, server.origin + '/', false)).toBeNull();
    expect(((await ask({ type: 'skillpin:settings-get' })) as Settings).paused).toBe(true);
    expect(server.log).toHaveLength(0);
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, paused: false } });
    expect(await service.onNavigation(1, server.origin + '/', false)).not.toBeNull();
    expect(server.log.length).toBeGreaterThan(0);
  });

  it('a caller changing the settings it got does not change what the next caller gets', async () => {
    const service = await makeService();
    const ask = (m: unknown): Promise<unknown> => service.handleMessage(m, POPUP);
    const got = (await ask({ type: 'skillpin:settings-get' })) as Settings;
    got.paused = true;
    got.denyList.push('127.0.0.1');
    expect(await ask({ type: 'skillpin:settings-get' })).toEqual(DEFAULT_SETTINGS);
  });

  it('a restarted worker reads the stored settings again', async () => {
    const first = await makeService();
    const settings = (await first.handleMessage({ type: 'skillpin:settings-get' }, POPUP)) as Settings;
    await first.handleMessage({ type: 'skillpin:settings-set', settings: { ...settings, denyList: ['127.0.0.1'] } }, POPUP);
    const restarted = await makeService();
    const before = reads;
    expect(((await restarted.handleMessage({ type: 'skillpin:settings-get' }, POPUP)) as Settings).denyList).toEqual(['127.0.0.1']);
    expect(reads).toBe(before + 1);
  });

  it('a failed read is not kept: the next call reads again', async () => {
    const service = await makeService();
    failReads = true;
    expect(await service.handleMessage({ type: 'skillpin:settings-get' }, POPUP)).toMatchObject({ ok: false, error: 'internal' });
    failReads = false;
    expect(await service.handleMessage({ type: 'skillpin:settings-get' }, POPUP)).toEqual(DEFAULT_SETTINGS);
    expect(reads).toBe(2);
  });
});
