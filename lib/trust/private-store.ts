// The trust store of private windows (PRODUCT.md §2.1, issue 20.7): everything a probe about a
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
import type { Approval, Pin, Settings } from '../types';
import { StoreError } from './errors';
import { checkedCacheBatch } from './idb-cache';
import { checkPinArgs } from './idb-pins';
import { checkedReport } from './idb-reports';
import { checkedSkillBatch } from './idb-skills';
import { latestOf, PRIVATE_LIMITS, PrivateMemory, underOrigin, type PrivateLimits } from './private-memory';
import { filesKeyOf, storedKey, type KeyHistoryEntry, type StoredSkill } from './records';
import type { CarryOver, CommitResult, OriginState, PinResult, ProbeCommit, RevokeResult, TrustStore } from './store-api';
import { toApproval, toStoredSkill } from './validate';

export interface PrivateStore extends TrustStore {
  /** Forgets everything the private windows stored (the last private tab closed). */
  clear(): void;
}

type TrustPart = Pick<
  TrustStore,
  'getPin' | 'pinIfAbsent' | 'replacePin' | 'forgetPin' | 'listPins' | 'getKeyHistory' | 'listKeyHistory' | 'revokeKey' | 'getApprovals' | 'getApproval' | 'approve' | 'revoke' | 'listApprovals'
>;

/** Pins, key history and approvals: the normal store's until a private window changes the origin. */
function trustPart(m: PrivateMemory): TrustPart {
  const { trust, base } = m;
  return {
    async getPin(origin) {
      const t = trust.get(origin);
      return t ? t.pin : (await base()).getPin(origin);
    },
    async pinIfAbsent(origin, key, fingerprint, now): Promise<PinResult> {
      checkPinArgs(origin, key, fingerprint, now);
      return (await m.own(origin)).pinIfAbsent(key, fingerprint, now);
    },
    async replacePin(origin, expected, key, fingerprint, now, carry: readonly CarryOver[] = []) {
      checkPinArgs(origin, key, fingerprint, now);
      return (await m.own(origin)).replacePin(expected, key, fingerprint, now, carry);
    },
    async forgetPin(origin) {
      (await m.own(origin)).forget();
    },
    async listPins() {
      const normal = (await (await base()).listPins()).filter((p) => !trust.has(p.origin));
      return [...normal, ...[...trust.values()].map((t) => t.pin).filter((p): p is Pin => p !== null)];
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
      if (typeof fingerprint !== 'string' || fingerprint === '') throw new StoreError('invalid-input', 'fingerprint must be a non-empty string; nothing was written');
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
      const a = toApproval(approval);
      const s = toStoredSkill(skill);
      if (!a || !s) throw new StoreError('invalid-input', 'the approval or its bytes do not have the required shape; nothing was written');
      if (s.origin !== a.origin || s.url !== a.url || s.digestLf !== a.digestLf || s.digestRaw !== a.digestRaw || (a.archive?.filesDigest ?? '') !== filesKeyOf(s)) {
        throw new StoreError('invalid-input', 'the approval does not bind these bytes; nothing was written');
      }
      const t = await m.own(a.origin);
      t.checkBinding(a, policyKey);
      t.approvals.set(a.url, a);
      // Approved bytes are kept whatever the budget (makeRoom never drops them).
      m.skills.set(storedKey(s), s);
    },
    async revoke(origin, url) {
      (await m.own(origin)).approvals.delete(url);
    },
    async listApprovals() {
      const normal = (await (await base()).listApprovals()).filter((a) => !trust.has(a.origin));
      return [...normal, ...[...trust.values()].flatMap((t) => [...t.approvals.values()])];
    },
  };
}

/** One probe's reads over both stores (the cache from memory only). */
async function originState(m: PrivateMemory, origin: string): Promise<OriginState> {
  const b = await m.base();
  const t = m.trust.get(origin);
  const normal = b.getOriginState ? await b.getOriginState(origin) : null;
  const keys: KeyHistoryEntry[] = t ? t.history() : (normal?.keys ?? (await b.getKeyHistory(origin)));
  const mine = [...m.skills.values()].filter((s) => s.origin === origin);
  const ids = new Set(mine.map(storedKey));
  return {
    pin: t ? t.pin : normal ? normal.pin : await b.getPin(origin),
    approvals: t ? [...t.approvals.values()] : normal ? normal.approvals : await b.getApprovals(origin),
    skills: [...mine, ...(normal?.skills ?? []).filter((s) => !ids.has(storedKey(s)))],
    cache: [...m.cache.values()].filter((e) => underOrigin(e.url, origin)),
    keys,
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
  const store: PrivateStore = {
    ...trustPart(m),
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
  return store;
}
