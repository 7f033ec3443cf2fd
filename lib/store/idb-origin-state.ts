// Everything one probe reads about one origin, in one readonly transaction: the pin, the
// approvals, the stored skills, the cache entries of the origin's URLs and the key history.
import type { StoreCore } from './idb-core';
import type { OriginState } from './store-api';

export async function getOriginState(core: StoreCore, origin: string): Promise<OriginState> {
  const [pin, approvals, skills, cache, keys] = await core.read(['pins', 'approvals', 'skills', 'cache', 'keys'], (tx) => {
    const range = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
    // Cache entries are keyed by URL: every key that starts with `origin/` ('0' follows '/').
    const urls = IDBKeyRange.bound(origin + '/', origin + '0', false, true);
    return Promise.all([
      tx.objectStore('pins').get(origin),
      tx.objectStore('approvals').index('by-origin').getAll(origin),
      tx.objectStore('skills').index('by-origin-storedAt').getAll(range),
      tx.objectStore('cache').getAll(urls),
      tx.objectStore('keys').index('by-origin').getAll(origin),
    ]);
  });
  return {
    pin: core.checked('pins', origin, pin),
    approvals: core.checkedAll('approvals', approvals),
    skills: core.checkedAll('skills', skills),
    cache: core.checkedAll('cache', cache),
    keys: core.checkedAll('keys', keys),
  };
}
