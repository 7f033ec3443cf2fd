// The trust store of private windows (PRODUCT.md §2.1): everything a probe about a
// private window stores, and what the user decides there, lives in this worker's memory only —
// never in IndexedDB or storage.local — and is gone when the worker stops or the last private
// tab closes (`clear`).
//
// Trust flows one way. A private window reads what the normal store knows: pins, key history,
// approvals, verified bytes and reports, so a key pinned in a normal window is still compared
// against and an approved skill stays approved. It never writes them: the first change a private
// window makes for an origin (a first pin, a lastSeen, an approval, trusting or revoking a key,
// forgetting a pin) copies that origin's pin, key history and approvals into memory, and from then
// on the private windows see the copy. The probe cache is not shared at all: the validators a
// normal visit stored (ETag, Last-Modified) would tie a private visit to it.
//
// Bounded like the store: reports, cache entries and the bytes of unapproved skills.
import { compareOrigins } from '../lists/pins-page';
import type { Approval, Pin, Settings } from '../types';
import { StoreError } from './errors';
import { checkedCacheBatch } from './idb-cache';
import { checkedReport } from './idb-reports';
import { checkedSkillBatch } from './idb-skills';
import { latestOf, PRIVATE_LIMITS, PrivateMemory, underOrigin, type PrivateLimits } from './private-memory';
import { storedKey, type StoredSkill } from './records';
import type { CarryOver, CommitResult, OriginState, PinResult, ProbeCommit, RevokeResult, TrustStore } from './store-api';
import { bindingError, checkedApproval, checkPinArgs, checkReplaceArgs, checkRevokeArgs } from './trust-rules';

export interface PrivateStore extends TrustStore {
  /** Forgets everything the private windows stored (the last private tab closed). */
  clear(): void;
}

/** One probe's reads over both stores (the cache from memory only). */
async function originState(m: PrivateMemory, origin: string): Promise<OriginState> {
  const normal = await (await m.base()).getOriginState(origin);
  const t = m.trust.get(origin);
  const mine = [...m.skills.values()].filter((s) => s.origin === origin);
  const ids = new Set(mine.map(storedKey));
  return {
    pin: t ? t.pin : normal.pin,
    approvals: t ? [...t.approvals.values()] : normal.approvals,
    skills: [...mine, ...normal.skills.filter((s) => !ids.has(storedKey(s)))],
    cache: [...m.cache.values()].filter((e) => underOrigin(e.url, origin)),
    keys: t ? t.history() : normal.keys,
  };
}

/** commitProbe in memory: everything is checked (the budget too) before anything changes, and nothing awaits after. */
async function commit(m: PrivateMemory, c: ProbeCommit): Promise<CommitResult> {
  const batch = checkedSkillBatch(c.skills).batch;
  const entries = checkedCacheBatch(c.cache);
  const report = c.report ? checkedReport(c.report) : null;
  if (report && report.origin !== c.origin) throw new StoreError('invalid-input', 'the report is not about the origin committed; nothing was written');
  if (c.pin) checkPinArgs(c.origin, c.pin.key, c.pin.fingerprint, c.pin.now);
  const t = c.pin ? await m.own(c.origin) : null;
  const drop = m.makeRoom(batch);
  const pin = c.pin && t ? t.pinIfAbsent(c.pin.key, c.pin.fingerprint, c.pin.now) : null;
  m.putSkills(batch, drop);
  m.putCache(entries);
  const reportWritten = report !== null && (c.pin === undefined || pin?.result === c.pin.expect);
  if (report && reportWritten) m.putReport(report);
  return { pin, reportWritten };
}

export function createPrivateStore(base: () => Promise<TrustStore>, limits: PrivateLimits = PRIVATE_LIMITS): PrivateStore {
  const m = new PrivateMemory(base, limits);
  const { trust } = m;
  const listPins = async (): Promise<Pin[]> => {
    const normal = (await (await base()).listPins()).filter((p) => !trust.has(p.origin));
    return [...normal, ...[...trust.values()].map((t) => t.pin).filter((p): p is Pin => p !== null)];
  };
  return {
    // Pins, key history and approvals: the normal store's until a private window changes the origin.
    async getPin(origin) {
      const t = trust.get(origin);
      return t ? t.pin : (await base()).getPin(origin);
    },
    async pinIfAbsent(origin, key, fingerprint, now): Promise<PinResult> {
      checkPinArgs(origin, key, fingerprint, now);
      return (await m.own(origin)).pinIfAbsent(key, fingerprint, now);
    },
    async replacePin(origin, expected, key, fingerprint, now, carry: readonly CarryOver[] = []) {
      checkReplaceArgs(origin, expected, key, fingerprint, now, carry);
      return (await m.own(origin)).replacePin(expected, key, fingerprint, now, carry);
    },
    async forgetPin(origin) {
      (await m.own(origin)).forget();
    },
    listPins,
    async pinsPage(offset, limit) {
      // In origin order, as the normal store's key reads them (lib/lists/pins-page.ts).
      const pins = (await listPins()).sort((a, b) => compareOrigins(a.origin, b.origin));
      const from = Math.max(0, offset);
      return { items: pins.slice(from, from + Math.max(0, limit)), total: pins.length };
    },
    async getKeyHistory(origin) {
      const t = trust.get(origin);
      return t ? t.history() : (await base()).getKeyHistory(origin);
    },
    async listKeyHistory() {
      const normal = (await (await base()).listKeyHistory()).filter((e) => !trust.has(e.origin));
      return [...normal, ...[...trust.values()].flatMap((t) => t.history())];
    },
    async revokeKey(origin, fingerprint, at): Promise<RevokeResult> {
      checkRevokeArgs(origin, fingerprint, at);
      return (await m.own(origin)).revokeKey(fingerprint, at);
    },
    async getApprovals(origin) {
      const t = trust.get(origin);
      return t ? [...t.approvals.values()] : (await base()).getApprovals(origin);
    },
    async getApproval(origin, url) {
      const t = trust.get(origin);
      return t ? (t.approvals.get(url) ?? null) : (await base()).getApproval(origin, url);
    },
    async approve(approval: Approval, skill: StoredSkill, policyKey: string | null = null) {
      const { a, s } = checkedApproval(approval, skill);
      const t = await m.own(a.origin);
      const refused = bindingError(a, policyKey, t.pin);
      if (refused) throw refused;
      t.approvals.set(a.url, a);
      // Approved bytes are kept whatever the budget (makeRoom never drops them).
      m.skills.set(storedKey(s), s);
    },
    async importApproval() {
      throw new StoreError('invalid-input', 'approvals are not imported from a private window; nothing was written');
    },
    async revoke(origin, url) {
      (await m.own(origin)).approvals.delete(url);
    },
    async listApprovals() {
      const normal = (await (await base()).listApprovals()).filter((a) => !trust.has(a.origin));
      return [...normal, ...[...trust.values()].flatMap((t) => [...t.approvals.values()])];
    },
    async putSkill(skill) {
      m.putSkills(checkedSkillBatch([skill]).batch);
    },
    async putSkills(list) {
      m.putSkills(checkedSkillBatch(list).batch);
    },
    async getSkill(origin, url, digestLf, filesDigest = '') {
      return m.skills.get(`${origin}\n${url}\n${digestLf}\n${filesDigest}`) ?? (await base()).getSkill(origin, url, digestLf, filesDigest);
    },
    async getLatestSkill(origin, url) {
      const mine = latestOf([...m.skills.values()].filter((s) => s.origin === origin && s.url === url));
      return latestOf([mine, await (await base()).getLatestSkill(origin, url)]);
    },
    getCache: async (url) => m.cache.get(url) ?? null,
    putCache: async (entry) => m.putCache(checkedCacheBatch([entry])),
    putCacheEntries: async (entries) => m.putCache(checkedCacheBatch(entries)),
    async deleteCacheForOrigin(origin) {
      for (const [url, e] of m.cache) if (underOrigin(url, origin) || e.origin === origin) m.cache.delete(url);
    },
    getReport: async (origin) => m.reports.get(origin) ?? (await base()).getReport(origin),
    putReport: async (report) => m.putReport(checkedReport(report)),
    async listReports() {
      const normal = (await (await base()).listReports()).filter((r) => !m.reports.has(r.origin));
      return [...normal, ...m.reports.values()];
    },
    getOriginState: (origin) => originState(m, origin),
    commitProbe: (c) => commit(m, c),
    getSettings: async (): Promise<Settings> => (await base()).getSettings(),
    async putSettings() {
      throw new StoreError('invalid-input', 'settings are not changed from a private window; nothing was written');
    },
    clear: () => m.clear(),
    close: () => m.clear(),
  };
}
