// The background service as the background tests build it: the real engine over a real trust
// store in fake-indexeddb, a platform in place of the extension APIs (fake-platform.ts), and the
// extension's identity the senders below are judged against.
import { IDBFactory } from 'fake-indexeddb';
import { createBackgroundService, type BackgroundPlatform, type BackgroundService } from '../../../lib/background/service';
import { openTrustStore } from '../../../lib/store/idb-store';
import type { TrustStore } from '../../../lib/store/store-api';
import type { FetchLike } from '../../../lib/types';
import { FakePlatform } from './fake-platform';

export const RUNTIME_ID = 'ext-id';
export const EXT = 'chrome-extension://abcdefghijklmnop/';
const EXT_ORIGIN = 'chrome-extension://abcdefghijklmnop';
/** Senders: the extension's own pages, a content script in a chat tab. */
export const POPUP = { id: RUNTIME_ID, url: `${EXT}popup.html`, origin: EXT_ORIGIN };
export const OPTIONS_PAGE = { id: RUNTIME_ID, url: `${EXT}options.html`, origin: EXT_ORIGIN };
/** The side panel's library page (Chrome's side panel, Firefox's sidebar). */
export const LIBRARY = { id: RUNTIME_ID, url: `${EXT}sidepanel.html`, origin: EXT_ORIGIN };
export const CONTENT_SCRIPT = { id: RUNTIME_ID, url: 'https://chat.example/c/1', tab: { id: 7, url: 'https://chat.example/c/1' } };

/** The fixed time of the background tests that do not move their clock. */
export const FIXED_NOW = Date.parse('2026-11-29T12:00:00Z');

export interface ServiceOptions {
  /** A FakePlatform unless given. */
  platform?: BackgroundPlatform;
  /** The database name of the trust store. */
  name: string;
  /** Where the store lives: a fresh fake-indexeddb unless given; pass the same one to restart a worker over the same data. */
  indexedDB?: IDBFactory;
  /** Wraps the opened store (to count or fail its calls). */
  wrapStore?: (store: TrustStore) => TrustStore;
  /** The clock; FIXED_NOW unless given. */
  now?: () => number;
  /** Real fetch (to the loopback server) unless given. */
  fetch?: FetchLike;
  /** How long a caller waits for managed storage (the product's 2 s unless given). */
  policyWaitMs?: number;
}

/** Creates the background service and waits until it is ready to answer. */
export async function startService(options: ServiceOptions): Promise<BackgroundService> {
  const factory = options.indexedDB ?? new IDBFactory();
  const wrap = options.wrapStore ?? ((store: TrustStore) => store);
  const service = createBackgroundService({
    openStore: async () => wrap(await openTrustStore({ name: options.name, indexedDB: factory })),
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    clock: { now: options.now ?? (() => FIXED_NOW) },
    platform: options.platform ?? new FakePlatform(),
    runtimeId: RUNTIME_ID,
    extensionBase: EXT,
    version: '0.1.0',
    ...(options.policyWaitMs === undefined ? {} : { policyWaitMs: options.policyWaitMs, readyPolicyWaitMs: options.policyWaitMs * 3 }),
  });
  await service.ready;
  return service;
}
