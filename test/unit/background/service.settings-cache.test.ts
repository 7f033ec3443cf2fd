// The background keeps the settings in memory: read from the store once, read again after
// settings-set writes them, and read again by a new service (a restarted worker).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { BackgroundService } from '../../../lib/background/service';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { POPUP, startService } from './service-harness';

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

/** Each call is a worker starting over the same database. */
const makeService = (): Promise<BackgroundService> => startService({ name: 'settings-cache', indexedDB: factory, wrapStore: counting });

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
