// One probe's view of the trust store. The origin's pin, approvals, stored skills and probe
// cache entries are read once, in one transaction, when the probe starts; the cache entries
// and verified bytes the probe produces are kept here and written at its end, each kind in one
// transaction (`flush`). Pins are not buffered: pinIfAbsent stays the store's own
// compare-and-set transaction, and readPin reads the pin as it is stored now.
// A store without the batch methods is read and written record by record.
import type { Approval, Pin } from '../types';
import { filesKeyOf, type ProbeCacheEntry, type StoredSkill } from '../trust/records';
import type { OriginState, PinResult, TrustStore } from '../trust/store-api';

/** The store calls the engine makes during one probe. */
export interface ProbeStore {
  getCache(url: string): Promise<ProbeCacheEntry | null>;
  /** Buffered until flush; later reads in the same probe see it. */
  putCache(entry: ProbeCacheEntry): Promise<void>;
  /** The origin's pin as read when the probe started. */
  getPin(origin: string): Promise<Pin | null>;
  /** The pin as stored right now. */
  readPin(origin: string): Promise<Pin | null>;
  pinIfAbsent(origin: string, key: string, fingerprint: string, now: number): Promise<PinResult>;
  /** The fingerprints revoked for the origin, as stored right now. */
  revokedKeys(origin: string): Promise<string[]>;
  getApproval(origin: string, url: string): Promise<Approval | null>;
  /** `filesDigest`: an archive's file-set digest ('' or absent: a SKILL.md skill). */
  getSkill(origin: string, url: string, digestLf: string, filesDigest?: string): Promise<StoredSkill | null>;
  getLatestSkill(origin: string, url: string): Promise<StoredSkill | null>;
  /** Buffered until flush (a later record for the same url and digest replaces it); later reads see it. */
  putSkill(skill: StoredSkill): Promise<void>;
}

export interface ProbeSession extends ProbeStore {
  /** Writes the buffered verified bytes and the buffered cache entries (one batch each). Empties the buffers. */
  flush(): Promise<void>;
}

function skillKey(url: string, digestLf: string, filesKey: string): string {
  return `${url}\n${digestLf}\n${filesKey}`;
}

function keyOf(s: StoredSkill): string {
  return skillKey(s.url, s.digestLf, filesKeyOf(s));
}

/** Newer storedAt first; equal times: the larger key (the order of the store's index read backwards). */
function newer(a: StoredSkill, b: StoredSkill): boolean {
  if (a.storedAt !== b.storedAt) return a.storedAt > b.storedAt;
  return a.digestLf !== b.digestLf ? a.digestLf > b.digestLf : filesKeyOf(a) > filesKeyOf(b);
}

class Snapshot {
  readonly pin: Pin | null;
  private readonly approvals = new Map<string, Approval>();
  private readonly skills = new Map<string, StoredSkill>();
  private readonly latest = new Map<string, StoredSkill>();
  private readonly cache = new Map<string, ProbeCacheEntry>();

  constructor(
    readonly origin: string,
    state: OriginState,
  ) {
    this.pin = state.pin;
    for (const a of state.approvals) this.approvals.set(a.url, a);
    for (const s of state.skills) this.addSkill(s);
    for (const e of state.cache) this.cache.set(e.url, e);
  }

  /** URLs whose cache entries the snapshot holds all of (the state holds every entry under origin + '/'). */
  coversUrl(url: string): boolean {
    return url.startsWith(this.origin + '/');
  }

  getCache(url: string): ProbeCacheEntry | null {
    return this.cache.get(url) ?? null;
  }

  setCache(entry: ProbeCacheEntry): void {
    if (this.coversUrl(entry.url)) this.cache.set(entry.url, entry);
  }

  getApproval(url: string): Approval | null {
    return this.approvals.get(url) ?? null;
  }

  getSkill(url: string, digestLf: string, filesKey: string): StoredSkill | null {
    return this.skills.get(skillKey(url, digestLf, filesKey)) ?? null;
  }

  getLatestSkill(url: string): StoredSkill | null {
    return this.latest.get(url) ?? null;
  }

  addSkill(s: StoredSkill): void {
    this.skills.set(keyOf(s), s);
    const current = this.latest.get(s.url);
    if (!current || newer(s, current)) {
      this.latest.set(s.url, s);
      return;
    }
    if (keyOf(current) !== keyOf(s)) return;
    // The latest record was rewritten (an older or equal storedAt): look again over the url's records.
    let best: StoredSkill = s;
    for (const other of this.skills.values()) if (other.url === s.url && newer(other, best)) best = other;
    this.latest.set(s.url, best);
  }
}

/**
 * Opens the probe's view of `store` for `origin` (an http(s) origin, no trailing slash).
 * Reading the origin's state may fail (the store is unreadable): the caller decides.
 */
export async function openSession(store: TrustStore, origin: string): Promise<ProbeSession> {
  const snapshot = store.getOriginState ? new Snapshot(origin, await store.getOriginState(origin)) : null;
  const forOrigin = (o: string): Snapshot | null => (snapshot && snapshot.origin === o ? snapshot : null);
  let skills = new Map<string, StoredSkill>();
  let cache = new Map<string, ProbeCacheEntry>();

  return {
    async getCache(url) {
      const buffered = cache.get(url);
      if (buffered) return buffered;
      if (snapshot && snapshot.coversUrl(url)) return snapshot.getCache(url);
      return store.getCache(url);
    },
    async putCache(entry) {
      cache.delete(entry.url);
      cache.set(entry.url, entry);
      snapshot?.setCache(entry);
    },
    async getPin(o) {
      const snap = forOrigin(o);
      return snap ? snap.pin : store.getPin(o);
    },
    readPin: (o) => store.getPin(o),
    pinIfAbsent: (o, key, fp, now) => store.pinIfAbsent(o, key, fp, now),
    revokedKeys: async (o) => (await store.getKeyHistory(o)).filter((e) => e.state === 'revoked').map((e) => e.fingerprint),
    async getApproval(o, url) {
      const snap = forOrigin(o);
      return snap ? snap.getApproval(url) : store.getApproval(o, url);
    },
    async getSkill(o, url, digestLf, filesDigest = '') {
      const buffered = skills.get(`${o}\n${skillKey(url, digestLf, filesDigest)}`);
      if (buffered) return buffered;
      const snap = forOrigin(o);
      return snap ? snap.getSkill(url, digestLf, filesDigest) : store.getSkill(o, url, digestLf, filesDigest);
    },
    async getLatestSkill(o, url) {
      const snap = forOrigin(o);
      if (snap) return snap.getLatestSkill(url);
      let best: StoredSkill | null = null;
      for (const s of skills.values()) if (s.origin === o && s.url === url && (!best || newer(s, best))) best = s;
      const stored = await store.getLatestSkill(o, url);
      return best && (!stored || newer(best, stored) || keyOf(stored) === keyOf(best)) ? best : stored;
    },
    async putSkill(skill) {
      const key = `${skill.origin}\n${keyOf(skill)}`;
      skills.delete(key);
      skills.set(key, skill);
      forOrigin(skill.origin)?.addSkill(skill);
    },
    async flush() {
      const pendingSkills = [...skills.values()];
      const pendingCache = [...cache.values()];
      skills = new Map();
      cache = new Map();
      // Two transactions over disjoint stores: the database may run them side by side.
      const writeSkills = async (): Promise<void> => {
        if (pendingSkills.length === 0) return;
        if (store.putSkills) await store.putSkills(pendingSkills);
        else for (const s of pendingSkills) await store.putSkill(s);
      };
      const writeCache = async (): Promise<void> => {
        if (pendingCache.length === 0) return;
        if (store.putCacheEntries) await store.putCacheEntries(pendingCache);
        else for (const e of pendingCache) await store.putCache(e);
      };
      await Promise.all([writeSkills(), writeCache()]);
    },
  };
}
