// The trust store of private windows (PRODUCT.md §2.1): everything a probe about a
// private window stores, and what the user decides there, lives in this worker's memory only —
// never in IndexedDB or storage.local — and is gone when the worker stops or the last private
// tab closes (`clear`). It is the same store as the normal one (idb-store.ts: the same rules,
// budgets and eviction) over a database in memory (memory-db.ts), with smaller bounds.
//
// Trust flows one way. A private window reads what the normal store knows: pins, key history,
// approvals, verified bytes and reports, so a key pinned in a normal window is still compared
// against and an approved skill stays approved. It never writes them: the first change a private
// window makes for an origin (a first pin, a lastSeen, an approval, trusting or revoking a key,
// forgetting a pin) copies that origin's pin, key history and approvals into memory, and from then
// on the private windows see the copy. The probe cache is not shared at all: the validators a
// normal visit stored (ETag, Last-Modified) would tie a private visit to it.
import type { IDBPDatabase } from 'idb';
import { compareOrigins } from '../types/pins-page';
import type { Pin } from '../types';
import { StoreError } from './errors';
import { openMemoryTrustStore, type StoreOptions } from './idb-store';
import { storedKey, type StoredSkill } from './records';
import type { SkillpinDB } from './schema';
import type { OriginState, TrustStore } from './store-api';

export interface PrivateStore extends TrustStore {
  /** Forgets everything the private windows stored (the last private tab closed). */
  clear(): void;
}

export type PrivateLimits = Pick<StoreOptions, 'maxReports' | 'maxCacheEntries' | 'maxSkillBytes' | 'maxSkillBytesPerOrigin'>;

export const PRIVATE_LIMITS: PrivateLimits = { maxReports: 200, maxCacheEntries: 2_000, maxSkillBytes: 32 * 1024 * 1024, maxSkillBytesPerOrigin: 32 * 1024 * 1024 };

/** What the private windows stored since the last `clear`. */
interface Memory {
  /** The store in memory, opened on first use (not at the worker's start: most never see a private window). */
  open(): Promise<{ store: TrustStore; db: IDBPDatabase<SkillpinDB> }>;
  /** Origins whose pin, key history and approvals were copied: the private windows see the copy. */
  owned: Set<string>;
  copying: Map<string, Promise<void>>;
}

function latestOf(list: (StoredSkill | null)[]): StoredSkill | null {
  let best: StoredSkill | null = null;
  for (const s of list) if (s && (!best || s.storedAt > best.storedAt)) best = s;
  return best;
}

export function createPrivateStore(base: () => Promise<TrustStore>, limits: PrivateLimits = PRIVATE_LIMITS): PrivateStore {
  const fresh = (): Memory => {
    let opened: ReturnType<Memory['open']> | null = null;
    return { open: () => (opened ??= openMemoryTrustStore(limits)), owned: new Set(), copying: new Map() };
  };
  let memory = fresh();
  const mem = async (): Promise<TrustStore> => (await memory.open()).store;

  /** Copies the origin's trust records into memory, once; the memory store then answers for them. */
  const own = async (origin: string): Promise<TrustStore> => {
    const m = memory;
    const { store, db } = await m.open();
    if (m.owned.has(origin)) return store;
    let copying = m.copying.get(origin);
    if (!copying) {
      copying = (async () => {
        const b = await base();
        const [pin, keys, approvals] = await Promise.all([b.getPin(origin), b.getKeyHistory(origin), b.getApprovals(origin)]);
        const tx = db.transaction(['pins', 'keys', 'approvals'], 'readwrite');
        await Promise.all([pin && tx.objectStore('pins').put(pin), ...keys.map((k) => tx.objectStore('keys').put(k)), ...approvals.map((a) => tx.objectStore('approvals').put(a))]);
        await tx.done;
        m.owned.add(origin);
      })();
      m.copying.set(origin, copying);
      const done = (): void => void m.copying.delete(origin);
      copying.then(done, done);
    }
    await copying;
    return store;
  };
  /** The store that answers about the origin's trust records: the memory once owned, else the normal one. */
  const trustOf = async (origin: string): Promise<TrustStore> => (memory.owned.has(origin) ? mem() : base());
  /** A normal-store list with the owned origins' records taken from memory instead. */
  const merged = async <T extends { origin: string }>(list: (s: TrustStore) => Promise<T[]>): Promise<T[]> => {
    const { owned } = memory;
    const normal = (await list(await base())).filter((x) => !owned.has(x.origin));
    return [...normal, ...(await list(await mem())).filter((x) => owned.has(x.origin))];
  };
  const listPins = (): Promise<Pin[]> => merged((s) => s.listPins());
  const clear = (): void => {
    memory = fresh();
  };

  return {
    getPin: async (origin) => (await trustOf(origin)).getPin(origin),
    pinIfAbsent: async (origin, key, fingerprint, now) => (await own(origin)).pinIfAbsent(origin, key, fingerprint, now),
    replacePin: async (origin, expected, key, fingerprint, now, carry) => (await own(origin)).replacePin(origin, expected, key, fingerprint, now, carry),
    forgetPin: async (origin) => (await own(origin)).forgetPin(origin),
    listPins,
    async pinsPage(offset, limit) {
      // In origin order, as the normal store's key reads them (lib/types/pins-page.ts).
      const pins = (await listPins()).sort((a, b) => compareOrigins(a.origin, b.origin));
      const from = Math.max(0, offset);
      return { items: pins.slice(from, from + Math.max(0, limit)), total: pins.length };
    },
    getKeyHistory: async (origin) => (await trustOf(origin)).getKeyHistory(origin),
    listKeyHistory: () => merged((s) => s.listKeyHistory()),
    revokeKey: async (origin, fingerprint, at) => (await own(origin)).revokeKey(origin, fingerprint, at),
    getApprovals: async (origin) => (await trustOf(origin)).getApprovals(origin),
    getApproval: async (origin, url) => (await trustOf(origin)).getApproval(origin, url),
    approve: async (approval, skill, policyKey) => (await own(approval.origin)).approve(approval, skill, policyKey),
    async importApproval() {
      throw new StoreError('invalid-input', 'approvals are not imported from a private window; nothing was written');
    },
    revoke: async (origin, url) => (await own(origin)).revoke(origin, url),
    listApprovals: () => merged((s) => s.listApprovals()),
    putSkill: async (skill) => (await mem()).putSkill(skill),
    putSkills: async (list) => (await mem()).putSkills(list),
    getSkill: async (origin, url, digestLf, filesDigest) => (await (await mem()).getSkill(origin, url, digestLf, filesDigest)) ?? (await base()).getSkill(origin, url, digestLf, filesDigest),
    getLatestSkill: async (origin, url) => latestOf(await Promise.all([(await mem()).getLatestSkill(origin, url), (await base()).getLatestSkill(origin, url)])),
    getCache: async (url) => (await mem()).getCache(url),
    putCache: async (entry) => (await mem()).putCache(entry),
    putCacheEntries: async (entries) => (await mem()).putCacheEntries(entries),
    deleteCacheForOrigin: async (origin) => (await mem()).deleteCacheForOrigin(origin),
    getReport: async (origin) => (await (await mem()).getReport(origin)) ?? (await base()).getReport(origin),
    putReport: async (report) => (await mem()).putReport(report),
    async listReports() {
      const mine = await (await mem()).listReports();
      const origins = new Set(mine.map((r) => r.origin));
      return [...(await (await base()).listReports()).filter((r) => !origins.has(r.origin)), ...mine];
    },
    async getOriginState(origin): Promise<OriginState> {
      // One probe's reads over both stores: the trust records from whichever answers for them, the cache from memory only.
      const [mine, normal] = await Promise.all([(await mem()).getOriginState(origin), (await base()).getOriginState(origin)]);
      const trust = memory.owned.has(origin) ? mine : normal;
      const ids = new Set(mine.skills.map(storedKey));
      return {
        pin: trust.pin,
        approvals: trust.approvals,
        keys: trust.keys,
        skills: [...mine.skills, ...normal.skills.filter((s) => !ids.has(storedKey(s)))],
        cache: mine.cache,
      };
    },
    commitProbe: async (c) => (c.pin ? await own(c.origin) : await mem()).commitProbe(c),
    getSettings: async () => (await base()).getSettings(),
    async putSettings() {
      throw new StoreError('invalid-input', 'settings are not changed from a private window; nothing was written');
    },
    clear,
    close: clear,
  };
}
