// The trust store held in memory, for private windows (private-store.ts): the IndexedDB store with
// every rule, budget and eviction of the normal one (idb-store.ts), over an IndexedDB that lives in
// this worker's memory (the fake-indexeddb package: a complete IndexedDB written in JavaScript,
// checked against the platform's own tests). Nothing of it reaches the disk; a new one is opened
// after `close`.
import { IDBFactory } from 'fake-indexeddb';
import type { Approval, Pin } from '../types';
import { StoreCore } from './idb-core';
import { createIdbStore, DEFAULT_BLOCKED_TIMEOUT_MS, DEFAULT_MAX_SKILLS_PER_ORIGIN, DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN } from './idb-store';
import { openDatabase } from './open';
import type { KeyHistoryEntry } from './records';
import type { TrustStore } from './store-api';

/** The bounds of the private windows' memory. */
export interface PrivateLimits {
  reports: number;
  cache: number;
  /** Bytes of the skills kept in memory, all origins together. */
  skillBytes: number;
}

export const PRIVATE_LIMITS: PrivateLimits = { reports: 200, cache: 2_000, skillBytes: 32 * 1024 * 1024 };

export interface MemoryStore {
  store: TrustStore;
  /** Writes an origin's trust records as the normal store holds them (a copy, taken once). */
  seed(pin: Pin | null, keys: readonly KeyHistoryEntry[], approvals: readonly Approval[]): Promise<void>;
}

export async function openMemoryStore(limits: PrivateLimits): Promise<MemoryStore> {
  const db = await openDatabase({ factory: new IDBFactory(), name: 'skillpin-private', blockedTimeoutMs: DEFAULT_BLOCKED_TIMEOUT_MS });
  const core = new StoreCore(
    db,
    {
      cache: limits.cache,
      reports: limits.reports,
      skillsPerOrigin: DEFAULT_MAX_SKILLS_PER_ORIGIN,
      skillBytesPerOrigin: Math.min(DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN, limits.skillBytes),
      skillBytes: limits.skillBytes,
    },
    () => undefined,
  );
  return {
    store: createIdbStore(core),
    async seed(pin, keys, approvals) {
      const tx = db.transaction(['pins', 'keys', 'approvals'], 'readwrite');
      await Promise.all([...(pin ? [tx.objectStore('pins').put(pin)] : []), ...keys.map((k) => tx.objectStore('keys').put(k)), ...approvals.map((a) => tx.objectStore('approvals').put(a)), tx.done]);
    },
  };
}
