// Everything one probe reads about one origin, in one readonly transaction: the pin, the
// approvals, the stored skills, the cache entries of the origin's URLs and the key history.
import { approvalKeyOf, type StoreCore } from './idb-core';
import { skillKeyOf } from './idb-skills';
import type { OriginState } from './store-api';
import { toApproval, toCacheEntry, toKeyHistoryEntry, toPin, toStoredSkill } from './validate';

export async function getOriginState(core: StoreCore, origin: string): Promise<OriginState> {
  const raw = await core.read(['pins', 'approvals', 'skills', 'cache', 'keys'], async (tx) => {
    const range = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
    // Cache entries are keyed by URL: every key that starts with `origin/` ('0' follows '/').
    const urls = IDBKeyRange.bound(origin + '/', origin + '0', false, true);
    const [pin, approvals, skills, cache, keys] = await Promise.all([
      tx.objectStore('pins').get(origin),
      tx.objectStore('approvals').index('by-origin').getAll(origin),
      tx.objectStore('skills').index('by-origin-storedAt').getAll(range),
      tx.objectStore('cache').getAll(urls),
      tx.objectStore('keys').index('by-origin').getAll(origin),
    ]);
    return { pin: pin as unknown, approvals: approvals as unknown[], skills: skills as unknown[], cache: cache as unknown[], keys: keys as unknown[] };
  });
  return {
    pin: core.checked('pins', origin, raw.pin, toPin),
    approvals: core.checkedAll('approvals', raw.approvals, toApproval, approvalKeyOf),
    skills: core.checkedAll('skills', raw.skills, toStoredSkill, skillKeyOf),
    cache: core.checkedAll('cache', raw.cache, toCacheEntry, (r) => (r as { url?: unknown } | null)?.url),
    keys: core.checkedAll('keys', raw.keys, toKeyHistoryEntry, (r) => [(r as { origin?: unknown } | null)?.origin, (r as { fingerprint?: unknown } | null)?.fingerprint]),
  };
}
