// The trust store of private windows (PRODUCT.md §2.1): everything a probe about a private window
// stores, and what the user decides there, lives in this worker's memory only — never in the
// browser's IndexedDB or storage.local — and is gone when the worker stops or the last private tab
// closes (`clear`). The memory is the same store as the normal one, with the same rules, budgets
// and eviction (idb-store.ts), over an IndexedDB held in memory (memory-db.ts).
//
// Trust flows one way. A private window reads what the normal store knows: pins, key history,
// approvals, verified bytes and reports, so a key pinned in a normal window is still compared
// against and an approved skill stays approved. It never writes them: the first change a private
// window makes for an origin (a first pin, a lastSeen, an approval, trusting or revoking a key,
// forgetting a pin) copies that origin's pin, key history and approvals into memory, and from then
// on the private windows see the copy. The probe cache is not shared at all: the validators a
// normal visit stored (ETag, Last-Modified) would tie a private visit to it.
import { compareOrigins } from '../lists/pins-page';
import type { Pin } from '../types';
import { StoreError } from './errors';
import { openMemoryStore, PRIVATE_LIMITS, type MemoryStore, type PrivateLimits } from './memory-db';
import { storedKey, type StoredSkill } from './records';
import type { CarryOver, OriginState, TrustStore } from './store-api';
import { checkPinArgs, checkReplaceArgs, checkRevokeArgs } from './trust-rules';

export { PRIVATE_LIMITS, type PrivateLimits } from './memory-db';

export interface PrivateStore extends TrustStore {
  /** Forgets everything the private windows stored (the last private tab closed). */
  clear(): void;
}

const newest = (list: (StoredSkill | null)[]): StoredSkill | null => list.reduce<StoredSkill | null>((best, s) => (s && (!best || s.storedAt > best.storedAt) ? s : best), null);

export function createPrivateStore(base: () => Promise<TrustStore>, limits: PrivateLimits = PRIVATE_LIMITS): PrivateStore {
  let memory: Promise<MemoryStore> | null = null;
  /** The origins whose pin, key history and approvals the memory holds, copied from the normal store. */
  let owned = new Map<string, Promise<void>>();
  /** The memory, opened the first time it is needed (again after a failed open or `clear`). */
  const opened = (): Promise<MemoryStore> => {
    if (memory) return memory;
    const opening = openMemoryStore(limits);
    memory = opening;
    opening.catch(() => {
      if (memory === opening) memory = null;
    });
    return opening;
  };
  const mem = async (): Promise<TrustStore> => (await opened()).store;
  const isOwned = (origin: string): boolean => owned.has(origin);

  /** The memory store, with the origin's trust records copied into it the first time. */
  const own = async (origin: string): Promise<TrustStore> => {
    const m = await opened();
    let copied = owned.get(origin);
    if (!copied) {
      copied = (async () => {
        const b = await base();
        const [pin, keys, approvals] = await Promise.all([b.getPin(origin), b.getKeyHistory(origin), b.getApprovals(origin)]);
        await m.seed(pin, keys, approvals);
      })();
      owned.set(origin, copied);
      const mine = owned;
      copied.catch(() => {
        if (mine.get(origin) === copied) mine.delete(origin);
      });
    }
    await copied;
    return m.store;
  };
  /** Pins, key history and approvals: the normal store's until a private window changes the origin. */
  const trustOf = async (origin: string): Promise<TrustStore> => (isOwned(origin) ? own(origin) : base());

  const listPins = async (): Promise<Pin[]> => [...(await (await base()).listPins()).filter((p) => !isOwned(p.origin)), ...(await (await mem()).listPins())];

  const originState = async (origin: string): Promise<OriginState> => {
    const [normal, mine] = await Promise.all([(await base()).getOriginState(origin), (await mem()).getOriginState(origin)]);
    const ids = new Set(mine.skills.map(storedKey));
    const trust = isOwned(origin) ? mine : normal;
    return { pin: trust.pin, approvals: trust.approvals, keys: trust.keys, skills: [...mine.skills, ...normal.skills.filter((s) => !ids.has(storedKey(s)))], cache: mine.cache };
  };

  return {
    getPin: async (origin) => (await trustOf(origin)).getPin(origin),
    async pinIfAbsent(origin, key, fingerprint, now) {
      checkPinArgs(origin, key, fingerprint, now);
      return (await own(origin)).pinIfAbsent(origin, key, fingerprint, now);
    },
    async replacePin(origin, expected, key, fingerprint, now, carry: readonly CarryOver[] = []) {
      checkReplaceArgs(origin, expected, key, fingerprint, now, carry);
      return (await own(origin)).replacePin(origin, expected, key, fingerprint, now, carry);
    },
    forgetPin: async (origin) => (await own(origin)).forgetPin(origin),
    listPins,
    async pinsPage(offset, limit) {
      // In origin order, as the normal store's key reads them (lib/lists/pins-page.ts).
      const pins = (await listPins()).sort((a, b) => compareOrigins(a.origin, b.origin));
      const from = Math.max(0, offset);
      return { items: pins.slice(from, from + Math.max(0, limit)), total: pins.length };
    },
    getKeyHistory: async (origin) => (await trustOf(origin)).getKeyHistory(origin),
    listKeyHistory: async () => [...(await (await base()).listKeyHistory()).filter((e) => !isOwned(e.origin)), ...(await (await mem()).listKeyHistory())],
    async revokeKey(origin, fingerprint, at) {
      checkRevokeArgs(origin, fingerprint, at);
      return (await own(origin)).revokeKey(origin, fingerprint, at);
    },
    getApprovals: async (origin) => (await trustOf(origin)).getApprovals(origin),
    getApproval: async (origin, url) => (await trustOf(origin)).getApproval(origin, url),
    approve: async (approval, skill, policyKey = null) => (await own(approval.origin)).approve(approval, skill, policyKey),
    async importApproval() {
      throw new StoreError('invalid-input', 'approvals are not imported from a private window; nothing was written');
    },
    revoke: async (origin, url) => (await own(origin)).revoke(origin, url),
    listApprovals: async () => [...(await (await base()).listApprovals()).filter((a) => !isOwned(a.origin)), ...(await (await mem()).listApprovals())],
    putSkill: async (skill) => (await mem()).putSkill(skill),
    putSkills: async (list) => (await mem()).putSkills(list),
    async getSkill(origin, url, digestLf, filesDigest = '') {
      return (await (await mem()).getSkill(origin, url, digestLf, filesDigest)) ?? (await base()).getSkill(origin, url, digestLf, filesDigest);
    },
    getLatestSkill: async (origin, url) => newest(await Promise.all([(await mem()).getLatestSkill(origin, url), (await base()).getLatestSkill(origin, url)])),
    getCache: async (url) => (await mem()).getCache(url),
    putCache: async (entry) => (await mem()).putCache(entry),
    putCacheEntries: async (entries) => (await mem()).putCacheEntries(entries),
    deleteCacheForOrigin: async (origin) => (await mem()).deleteCacheForOrigin(origin),
    getReport: async (origin) => (await (await mem()).getReport(origin)) ?? (await base()).getReport(origin),
    putReport: async (report) => (await mem()).putReport(report),
    async listReports() {
      const mine = await (await mem()).listReports();
      const ids = new Set(mine.map((r) => r.origin));
      return [...(await (await base()).listReports()).filter((r) => !ids.has(r.origin)), ...mine];
    },
    getOriginState: originState,
    async commitProbe(c) {
      if (c.pin) checkPinArgs(c.origin, c.pin.key, c.pin.fingerprint, c.pin.now);
      return (await (c.pin ? own(c.origin) : mem())).commitProbe(c);
    },
    getSettings: async () => (await base()).getSettings(),
    async putSettings() {
      throw new StoreError('invalid-input', 'settings are not changed from a private window; nothing was written');
    },
    clear() {
      const was = memory;
      memory = null;
      owned = new Map();
      void was?.then((m) => m.store.close()).catch(() => undefined);
    },
    close() {
      this.clear();
    },
  };
}
