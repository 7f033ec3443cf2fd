// The probe cache of the trust store: each write bounds the number of entries (evict.ts) in the
// same transaction, never evicting what it just wrote.
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { ProbeCacheEntry } from './records';
import { checkedInput } from './errors';
import { evictCache } from './evict';
import type { StoreCore } from './idb-core';
import { cacheEvictKey, type SkillpinDB } from './schema';
import { toCacheEntry, toCacheRecord } from './validate';

/** The entries of a batch, checked; nothing is written from a batch with one malformed entry. */
export function checkedCacheBatch(entries: readonly ProbeCacheEntry[]): ProbeCacheEntry[] {
  return entries.map((entry) => checkedInput(toCacheEntry(entry), 'an entry does not have the shape of a ProbeCacheEntry; nothing was written'));
}

export async function putCacheEntries(core: StoreCore, entries: ProbeCacheEntry[]): Promise<void> {
  const checked = checkedCacheBatch(entries);
  if (checked.length === 0) return;
  await core.write(['cache'], (tx) => putCacheInTx(core, tx.objectStore('cache'), checked));
}

type CacheStore = IDBPObjectStore<SkillpinDB, ArrayLike<StoreNames<SkillpinDB>>, 'cache', 'readwrite'>;

/** putCacheEntries inside the caller's readwrite transaction (entries already checked). */
export async function putCacheInTx(core: StoreCore, cache: CacheStore, checked: readonly ProbeCacheEntry[]): Promise<void> {
  await Promise.all(checked.map((e) => cache.put(toCacheRecord(e, cacheEvictKey(e)))));
  await evictCache(cache, core.limits.cache, new Set(checked.map((e) => e.url)));
}

export async function deleteCacheForOrigin(core: StoreCore, origin: string): Promise<void> {
  await core.write(['cache'], async (tx) => {
    const cache = tx.objectStore('cache');
    for (const url of await cache.index('by-origin').getAllKeys(origin)) await cache.delete(url);
  });
}
