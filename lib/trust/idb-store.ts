// The trust store over IndexedDB. Every write is one readwrite transaction: compare-and-set
// on pins, approval plus bytes, write plus eviction. Every read checks the record's shape;
// a record that fails is skipped and reported through onError, and kept as it is.
import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { Approval, OriginReport, Pin, Settings } from '../types';
import type { KeyHistoryEntry, ProbeCacheEntry, StoredSkill } from './records';
import { StoreError, classifyIdbError } from './errors';
import { enforceByteBudget, evictCache, evictCacheKeeping, evictReports, pruneSkills, pruneSkillsAfterBatch } from './evict';
import { openDatabase } from './open';
import { DB_NAME, SETTINGS_KEY, cacheEvictKey } from './schema';
import type { SkillpinDB, SkillRecord } from './schema';
import { isCompleteSettings, pickSettings, readSettings } from './settings';
import type { ApprovalImport, CarryOver, OriginState, PinResult, RevokeResult, TrustStore } from './store-api';
import {
  compactBytes,
  isFiniteNumber,
  reportOrder,
  toApproval,
  toCacheEntry,
  toCacheRecord,
  toKeyHistoryEntry,
  toOriginReport,
  toPin,
  toReportRecord,
  toStoredSkill,
} from './validate';

export interface StoreOptions {
  /** Database name (tests use one per test). Default DB_NAME. */
  name?: string;
  /** The IndexedDB factory. Default: the global `indexedDB`. */
  indexedDB?: IDBFactory;
  /** Probe cache bound. Default 20,000 entries. */
  maxCacheEntries?: number;
  /** Stored reports bound. Default 2,000 reports. */
  maxReports?: number;
  /** Stored skill bytes per origin. Default 256 records. */
  maxSkillsPerOrigin?: number;
  /** Bytes of stored skills per origin. Default 32 MiB. */
  maxSkillBytesPerOrigin?: number;
  /** Bytes of stored skills of all origins together. Default 256 MiB. */
  maxSkillBytes?: number;
  /** How long an upgrade waits for older connections after `blocked`. Default 5,000 ms. */
  blockedTimeoutMs?: number;
  /** Problems that do not fail the call: corrupt records skipped, connection closed for an upgrade. */
  onError?: (e: StoreError) => void;
}

export const DEFAULT_MAX_CACHE_ENTRIES = 20_000;
export const DEFAULT_MAX_REPORTS = 2_000;
export const DEFAULT_MAX_SKILLS_PER_ORIGIN = 256;
/**
 * Byte budgets of the stored skill bytes (hardening issue 10): records alone do not bound them.
 * Per origin 32 MiB: a probe stores at most 64 SKILL.md of at most 256 KiB (16 MiB), and the
 * approved versions of the same 64 skills may be kept beside them (another 16 MiB). All origins
 * together 256 MiB, far below what browsers grant an extension's IndexedDB. Over a budget the
 * oldest unapproved bytes go first; approved bytes are never evicted, and when only they are
 * left new unapproved bytes are refused (`over-budget`) instead (evict.ts).
 */
export const DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN = 32 * 1024 * 1024;
export const DEFAULT_MAX_SKILL_BYTES = 256 * 1024 * 1024;
export const DEFAULT_BLOCKED_TIMEOUT_MS = 5_000;
/**
 * Keys an origin offered but nobody trusted, kept per origin (the oldest go first): a site that
 * serves a new random key on every visit must not grow the history without end.
 */
export const MAX_OFFERED_KEYS_PER_ORIGIN = 16;

type Names = StoreNames<SkillpinDB>;

function positiveInt(v: number | undefined, fallback: number, field: string): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 1) throw new StoreError('invalid-input', `${field} must be a positive integer`);
  return v;
}

function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new StoreError('invalid-input', `${field} must be a non-empty string`);
  return value;
}

function requireTime(value: unknown, field: string): number {
  if (!isFiniteNumber(value)) throw new StoreError('invalid-input', `${field} must be a finite number`);
  return value;
}

function keyText(key: unknown): string {
  return Array.isArray(key) ? key.map(String).join(' ') : String(key);
}

class IdbTrustStore implements TrustStore {
  private closedReason: StoreError | null = null;

  constructor(
    private readonly db: IDBPDatabase<SkillpinDB>,
    private readonly limits: { cache: number; reports: number; skillsPerOrigin: number; skillBytesPerOrigin: number; skillBytes: number },
    private readonly onError: (e: StoreError) => void,
  ) {
    db.addEventListener('versionchange', () => {
      // A newer version wants to upgrade: let it, and refuse further calls on this connection.
      db.close();
      this.closedReason = new StoreError('version-error', 'the trust database is being upgraded by a newer Skillpin; reopen the store');
      this.report(this.closedReason);
    });
    db.addEventListener('close', () => {
      this.closedReason ??= new StoreError('closed', 'the browser closed the trust database');
    });
  }

  // ------------------------------------------------------------------ plumbing

  private report(e: StoreError): void {
    try {
      this.onError(e);
    } catch {
      // A failing error handler must not turn a read into a failure.
    }
  }

  private corrupt(store: string, key: unknown): StoreError {
    const e = new StoreError('corrupt-record', `unreadable ${store} record ${keyText(key)} was skipped (it is kept unchanged)`, {
      store,
      key: keyText(key),
    });
    this.report(e);
    return e;
  }

  /** Validates a raw record; reports and skips it when it fails. */
  private checked<T>(store: string, key: unknown, raw: unknown, validate: (v: unknown) => T | null): T | null {
    if (raw === undefined) return null;
    const value = validate(raw);
    if (value === null) this.corrupt(store, key);
    return value;
  }

  private checkedAll<T>(store: string, raws: unknown[], validate: (v: unknown) => T | null, keyOf: (v: unknown) => unknown): T[] {
    const out: T[] = [];
    for (const raw of raws) {
      const value = this.checked(store, keyOf(raw), raw, validate);
      if (value !== null) out.push(value);
    }
    return out;
  }

  private connection(): IDBPDatabase<SkillpinDB> {
    if (this.closedReason) throw this.closedReason;
    return this.db;
  }

  private async run<S extends Names[], M extends IDBTransactionMode, T>(
    stores: S,
    mode: M,
    body: (tx: IDBPTransaction<SkillpinDB, S, M>) => Promise<T>,
  ): Promise<T> {
    let tx: IDBPTransaction<SkillpinDB, S, M>;
    try {
      tx = this.connection().transaction(stores, mode, { durability: 'strict' });
    } catch (e) {
      throw classifyIdbError(e);
    }
    const done = tx.done;
    try {
      const result = await body(tx);
      await done;
      return result;
    } catch (e) {
      try {
        tx.abort();
      } catch {
        // Already committed or aborted.
      }
      await done.catch(() => undefined);
      throw classifyIdbError(e);
    }
  }

  private read<S extends Names[], T>(stores: S, body: (tx: IDBPTransaction<SkillpinDB, S, 'readonly'>) => Promise<T>): Promise<T> {
    return this.run(stores, 'readonly', body);
  }

  private write<S extends Names[], T>(stores: S, body: (tx: IDBPTransaction<SkillpinDB, S, 'readwrite'>) => Promise<T>): Promise<T> {
    return this.run(stores, 'readwrite', body);
  }

  private budget(): { perOrigin: number; total: number } {
    return { perOrigin: this.limits.skillBytesPerOrigin, total: this.limits.skillBytes };
  }

  // ------------------------------------------------------------------ pins

  async getPin(origin: string): Promise<Pin | null> {
    const raw: unknown = await this.read(['pins'], (tx) => tx.objectStore('pins').get(origin));
    return this.checked('pins', origin, raw, toPin);
  }

  async pinIfAbsent(origin: string, key: string, fingerprint: string, now: number): Promise<PinResult> {
    requireText(origin, 'origin');
    requireText(key, 'key');
    requireText(fingerprint, 'fingerprint');
    requireTime(now, 'now');
    return this.write(['pins', 'keys'], async (tx) => {
      const pins = tx.objectStore('pins');
      const keys = tx.objectStore('keys');
      const seen = await this.historyEntry(keys, origin, fingerprint);
      const raw: unknown = await pins.get(origin);
      if (seen?.state === 'revoked') {
        // Never pinned, never refreshed: the key the user revoked is not accepted (PRODUCT.md §5).
        return { result: 'revoked', pin: raw === undefined ? null : toPin(raw) };
      }
      if (raw === undefined) {
        const pin: Pin = { origin, key, fingerprint, firstSeen: now, lastSeen: now };
        await pins.put(pin);
        await keys.put({ origin, fingerprint, key, firstSeen: seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null });
        return { result: 'pinned', pin };
      }
      const pin = toPin(raw);
      // An unreadable pin is neither absent nor comparable: refuse, and keep it.
      if (!pin) throw this.corrupt('pins', origin);
      if (pin.fingerprint !== fingerprint || pin.key !== key) {
        if (!seen) {
          await keys.put({ origin, fingerprint, key, firstSeen: now, lastSeen: now, state: 'offered', revokedAt: null });
          await this.boundOffered(keys, origin, fingerprint);
        } else if (now > seen.lastSeen) await keys.put({ ...seen, key: seen.key ?? key, lastSeen: now });
        return { result: 'mismatch', pin };
      }
      if (!seen) await keys.put({ origin, fingerprint, key, firstSeen: pin.firstSeen, lastSeen: Math.max(pin.lastSeen, now), state: 'pinned', revokedAt: null });
      else if (now > seen.lastSeen) await keys.put({ ...seen, lastSeen: now });
      if (now <= pin.lastSeen) return { result: 'match', pin };
      const refreshed: Pin = { ...pin, lastSeen: now };
      await pins.put(refreshed);
      return { result: 'match', pin: refreshed };
    });
  }

  /** The history entry of (origin, fingerprint); an unreadable one may be a revocation: refuse. */
  private async historyEntry(
    keys: { get(key: [string, string]): Promise<KeyHistoryEntry | undefined> },
    origin: string,
    fingerprint: string,
  ): Promise<KeyHistoryEntry | null> {
    const raw: unknown = await keys.get([origin, fingerprint]);
    if (raw === undefined) return null;
    const entry = toKeyHistoryEntry(raw);
    if (!entry) throw this.corrupt('keys', [origin, fingerprint]);
    return entry;
  }

  /** Keeps at most MAX_OFFERED_KEYS_PER_ORIGIN `offered` entries, dropping the least recently seen (never `keep`). */
  private async boundOffered(
    keys: { index(name: 'by-origin'): { getAll(origin: string): Promise<KeyHistoryEntry[]> }; delete(key: [string, string]): Promise<void> },
    origin: string,
    keep: string,
  ): Promise<void> {
    const offered = (await keys.index('by-origin').getAll(origin))
      .map((raw: unknown) => toKeyHistoryEntry(raw))
      .filter((e): e is KeyHistoryEntry => e !== null && e.state === 'offered' && e.fingerprint !== keep)
      .sort((a, b) => a.lastSeen - b.lastSeen);
    const excess = offered.length + 1 - MAX_OFFERED_KEYS_PER_ORIGIN;
    for (const e of offered.slice(0, Math.max(0, excess))) await keys.delete([origin, e.fingerprint]);
  }

  async replacePin(
    origin: string,
    expectedFingerprint: string | null,
    key: string,
    fingerprint: string,
    now: number,
    carry: readonly CarryOver[] = [],
  ): Promise<boolean> {
    requireText(origin, 'origin');
    requireText(key, 'key');
    requireText(fingerprint, 'fingerprint');
    requireTime(now, 'now');
    if (expectedFingerprint !== null) requireText(expectedFingerprint, 'expectedFingerprint');
    if (!Array.isArray(carry) || !carry.every((c) => isCarryOver(c))) {
      throw new StoreError('invalid-input', 'carry must be a list of { url, digestLf }; nothing was written');
    }
    return this.write(['pins', 'approvals', 'keys'], async (tx) => {
      const pins = tx.objectStore('pins');
      const keys = tx.objectStore('keys');
      const seen = await this.historyEntry(keys, origin, fingerprint);
      if (seen?.state === 'revoked') {
        throw new StoreError('key-revoked', `${fingerprint} was revoked for ${origin}; it is never trusted again. Nothing was written.`, {
          store: 'keys',
          key: `${origin} ${fingerprint}`,
        });
      }
      const raw: unknown = await pins.get(origin);
      let current: Pin | null = null;
      if (raw !== undefined) {
        current = toPin(raw);
        if (!current) {
          this.corrupt('pins', origin);
          return false;
        }
      }
      if ((current?.fingerprint ?? null) !== expectedFingerprint) return false;
      // Trusting the key that is already pinned changes nothing and suspends nothing.
      if (current && current.fingerprint === fingerprint && current.key === key) return true;
      await pins.put({ origin, key, fingerprint, firstSeen: now, lastSeen: now });
      await keys.put({ origin, fingerprint, key, firstSeen: seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null });
      if (current) {
        const old = toKeyHistoryEntry(await keys.get([origin, current.fingerprint]));
        // A revoked old key stays revoked; otherwise it is now a replaced key.
        if (!old || old.state !== 'revoked') {
          await keys.put({
            origin,
            fingerprint: current.fingerprint,
            key: current.key,
            firstSeen: old ? Math.min(old.firstSeen, current.firstSeen) : current.firstSeen,
            lastSeen: old ? Math.max(old.lastSeen, current.lastSeen) : current.lastSeen,
            state: 'replaced',
            revokedAt: null,
          });
        }
      }
      // Approvals whose bytes are unchanged carry over to the new key; the rest need a decision.
      const unchanged = new Map(carry.map((c) => [c.url, c.digestLf.toLowerCase()]));
      const approvals = tx.objectStore('approvals');
      for (const rawApproval of await approvals.index('by-origin').getAll(origin)) {
        const a = toApproval(rawApproval);
        const boundToOld = a !== null && (a.keyFingerprint === null || a.keyFingerprint === current?.fingerprint);
        if (a && boundToOld && unchanged.get(a.url) === a.digestLf.toLowerCase()) {
          await approvals.put({ ...a, keyFingerprint: a.keyFingerprint === null ? null : fingerprint });
        } else {
          await approvals.delete(approvalKeyOf(rawApproval) as [string, string]);
        }
      }
      return true;
    });
  }

  async forgetPin(origin: string): Promise<void> {
    await this.write(['pins', 'keys'], async (tx) => {
      await tx.objectStore('pins').delete(origin);
      const keys = tx.objectStore('keys');
      for (const raw of await keys.index('by-origin').getAll(origin)) {
        const entry = toKeyHistoryEntry(raw);
        // Revocations outlive forget (PRODUCT.md §5); an unreadable entry might be one: keep it.
        if (entry && entry.state !== 'revoked') await keys.delete([origin, entry.fingerprint]);
      }
    });
  }

  async listPins(): Promise<Pin[]> {
    const raws: unknown[] = await this.read(['pins'], (tx) => tx.objectStore('pins').getAll());
    return this.checkedAll('pins', raws, toPin, (r) => (r as { origin?: unknown } | null)?.origin);
  }

  // ------------------------------------------------------------------ key history

  async getKeyHistory(origin: string): Promise<KeyHistoryEntry[]> {
    const raws: unknown[] = await this.read(['keys'], (tx) => tx.objectStore('keys').index('by-origin').getAll(origin));
    return this.checkedAll('keys', raws, toKeyHistoryEntry, keyEntryKeyOf).sort(byFirstSeen);
  }

  async listKeyHistory(): Promise<KeyHistoryEntry[]> {
    const raws: unknown[] = await this.read(['keys'], (tx) => tx.objectStore('keys').getAll());
    return this.checkedAll('keys', raws, toKeyHistoryEntry, keyEntryKeyOf).sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : byFirstSeen(a, b)));
  }

  async revokeKey(origin: string, fingerprint: string, at: number): Promise<RevokeResult> {
    requireText(origin, 'origin');
    requireText(fingerprint, 'fingerprint');
    requireTime(at, 'at');
    return this.write(['keys'], async (tx): Promise<RevokeResult> => {
      const keys = tx.objectStore('keys');
      const raw: unknown = await keys.get([origin, fingerprint]);
      const entry = raw === undefined ? null : toKeyHistoryEntry(raw);
      if (raw !== undefined && !entry) this.corrupt('keys', [origin, fingerprint]);
      if (entry?.state === 'revoked') return 'unchanged';
      await keys.put({
        origin,
        fingerprint,
        key: entry?.key ?? null,
        firstSeen: entry?.firstSeen ?? at,
        lastSeen: entry?.lastSeen ?? at,
        state: 'revoked',
        revokedAt: at,
      });
      return 'revoked';
    });
  }

  // ------------------------------------------------------------------ approvals

  async getApprovals(origin: string): Promise<Approval[]> {
    const raws: unknown[] = await this.read(['approvals'], (tx) => tx.objectStore('approvals').index('by-origin').getAll(origin));
    return this.checkedAll('approvals', raws, toApproval, approvalKeyOf);
  }

  async getApproval(origin: string, url: string): Promise<Approval | null> {
    const raw: unknown = await this.read(['approvals'], (tx) => tx.objectStore('approvals').get([origin, url]));
    return this.checked('approvals', [origin, url], raw, toApproval);
  }

  async approve(approval: Approval, skill: StoredSkill, policyKey: string | null = null): Promise<void> {
    const a = toApproval(approval);
    if (!a) throw new StoreError('invalid-input', 'approval does not have the shape of an Approval; nothing was written');
    const s = toStoredSkill(skill);
    if (!s) throw new StoreError('invalid-input', 'skill does not have the shape of a StoredSkill; nothing was written');
    if (s.origin !== a.origin || s.url !== a.url || s.digestLf !== a.digestLf || s.digestRaw !== a.digestRaw) {
      throw new StoreError('invalid-input', 'the approval does not bind these bytes (origin, url or digest differ); nothing was written');
    }
    await this.write(['pins', 'approvals', 'skills'], async (tx) => {
      if (policyKey !== null) {
        // The administrator's key is the origin's pin while the policy names it; no stored pin is read.
        if (a.keyFingerprint !== null && a.keyFingerprint !== policyKey) {
          throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but the administrator pinned ${policyKey} for ${a.origin}; nothing was written`);
        }
      } else await this.checkPinBinding(tx.objectStore('pins'), a);
      await tx.objectStore('approvals').put(a);
      await tx.objectStore('skills').put(skillRecord(s));
      const skillsTx = tx as unknown as IDBPTransaction<SkillpinDB, ['approvals', 'skills'], 'readwrite'>;
      await pruneSkills(skillsTx, s.origin, s.url, s.digestLf, this.limits.skillsPerOrigin);
      // Approved bytes make room by evicting unapproved ones; an approval itself is never refused.
      await enforceByteBudget(skillsTx, [s.origin], new Set([writtenKey(s)]), this.budget(), false);
    });
  }

  /** An approval that names a key must name the key pinned right now (same transaction). */
  private async checkPinBinding(pins: { get(origin: string): Promise<Pin | undefined> }, a: Approval): Promise<boolean> {
    if (a.keyFingerprint === null) return true;
    const pin = toPin(await pins.get(a.origin));
    if (!pin || pin.fingerprint !== a.keyFingerprint) {
      throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but ${a.origin} has ${pin ? `key ${pin.fingerprint}` : 'no readable pin'}; nothing was written`);
    }
    return true;
  }

  async importApproval(approval: Approval): Promise<ApprovalImport> {
    const a = toApproval(approval);
    if (!a) throw new StoreError('invalid-input', 'approval does not have the shape of an Approval; nothing was written');
    return this.write(['pins', 'approvals'], async (tx): Promise<ApprovalImport> => {
      try {
        await this.checkPinBinding(tx.objectStore('pins'), a);
      } catch (e) {
        if (e instanceof StoreError && e.code === 'pin-changed') return 'pin-mismatch';
        throw e;
      }
      const approvals = tx.objectStore('approvals');
      const raw: unknown = await approvals.get([a.origin, a.url]);
      if (raw !== undefined) {
        const existing = toApproval(raw);
        if (!existing) this.corrupt('approvals', [a.origin, a.url]);
        if (existing && existing.digestLf === a.digestLf && existing.keyFingerprint === a.keyFingerprint) return 'unchanged';
        return 'different';
      }
      await approvals.put(a);
      return 'added';
    });
  }

  async revoke(origin: string, url: string): Promise<void> {
    await this.write(['approvals'], (tx) => tx.objectStore('approvals').delete([origin, url]));
  }

  async listApprovals(): Promise<Approval[]> {
    const raws: unknown[] = await this.read(['approvals'], (tx) => tx.objectStore('approvals').getAll());
    return this.checkedAll('approvals', raws, toApproval, approvalKeyOf);
  }

  // ------------------------------------------------------------------ verified bytes

  async putSkill(skill: StoredSkill): Promise<void> {
    const s = toStoredSkill(skill);
    if (!s) throw new StoreError('invalid-input', 'skill does not have the shape of a StoredSkill; nothing was written');
    await this.write(['approvals', 'skills'], async (tx) => {
      await tx.objectStore('skills').put(skillRecord(s));
      await pruneSkills(tx, s.origin, s.url, s.digestLf, this.limits.skillsPerOrigin);
      await enforceByteBudget(tx, [s.origin], new Set([writtenKey(s)]), this.budget(), true);
    });
  }

  async putSkills(skills: StoredSkill[]): Promise<void> {
    const checked: StoredSkill[] = [];
    for (const skill of skills) {
      const s = toStoredSkill(skill);
      if (!s) throw new StoreError('invalid-input', 'a skill does not have the shape of a StoredSkill; nothing was written');
      checked.push(s);
    }
    if (checked.length === 0) return;
    await this.write(['approvals', 'skills'], async (tx) => {
      // Requests of one transaction run in order: issue them together, then bound once.
      const skills = tx.objectStore('skills');
      await Promise.all(checked.map((s) => skills.put(skillRecord(s))));
      await pruneSkillsAfterBatch(tx, checked, this.limits.skillsPerOrigin);
      // Bytes the per-URL pruning just removed are not kept by being in the batch.
      const kept = new Set<string>();
      for (const s of checked) if ((await skills.getKey([s.origin, s.url, s.digestLf])) !== undefined) kept.add(writtenKey(s));
      await enforceByteBudget(tx, checked.map((s) => s.origin), kept, this.budget(), true);
    });
  }

  async getSkill(origin: string, url: string, digestLf: string): Promise<StoredSkill | null> {
    const raw: unknown = await this.read(['skills'], (tx) => tx.objectStore('skills').get([origin, url, digestLf]));
    return this.checked('skills', [origin, url, digestLf], raw, toStoredSkill);
  }

  async getLatestSkill(origin: string, url: string): Promise<StoredSkill | null> {
    return this.read(['skills'], async (tx) => {
      const range = IDBKeyRange.bound([origin, url, -Infinity], [origin, url, Infinity]);
      let cursor = await tx.objectStore('skills').index('by-origin-url-storedAt').openCursor(range, 'prev');
      while (cursor) {
        const skill = this.checked('skills', cursor.primaryKey, cursor.value, toStoredSkill);
        if (skill) return skill;
        cursor = await cursor.continue();
      }
      return null;
    });
  }

  // ------------------------------------------------------------------ probe cache

  async getCache(url: string): Promise<ProbeCacheEntry | null> {
    const raw: unknown = await this.read(['cache'], (tx) => tx.objectStore('cache').get(url));
    return this.checked('cache', url, raw, toCacheEntry);
  }

  async putCache(entry: ProbeCacheEntry): Promise<void> {
    const e = toCacheEntry(entry);
    if (!e) throw new StoreError('invalid-input', 'entry does not have the shape of a ProbeCacheEntry; nothing was written');
    await this.write(['cache'], async (tx) => {
      const cache = tx.objectStore('cache');
      await cache.put(toCacheRecord(e, cacheEvictKey(e)));
      await evictCache(cache, this.limits.cache, e.url);
    });
  }

  async putCacheEntries(entries: ProbeCacheEntry[]): Promise<void> {
    const checked: ProbeCacheEntry[] = [];
    for (const entry of entries) {
      const e = toCacheEntry(entry);
      if (!e) throw new StoreError('invalid-input', 'an entry does not have the shape of a ProbeCacheEntry; nothing was written');
      checked.push(e);
    }
    if (checked.length === 0) return;
    await this.write(['cache'], async (tx) => {
      const cache = tx.objectStore('cache');
      await Promise.all(checked.map((e) => cache.put(toCacheRecord(e, cacheEvictKey(e)))));
      await evictCacheKeeping(cache, this.limits.cache, new Set(checked.map((e) => e.url)));
    });
  }

  async deleteCacheForOrigin(origin: string): Promise<void> {
    await this.write(['cache'], async (tx) => {
      const cache = tx.objectStore('cache');
      for (const url of await cache.index('by-origin').getAllKeys(origin)) await cache.delete(url);
    });
  }

  // ------------------------------------------------------------------ reports

  async getReport(origin: string): Promise<OriginReport | null> {
    const raw: unknown = await this.read(['reports'], (tx) => tx.objectStore('reports').get(origin));
    return this.checked('reports', origin, raw, toReportRecord)?.report ?? null;
  }

  async putReport(report: OriginReport): Promise<void> {
    const r = toOriginReport(report);
    if (!r) throw new StoreError('invalid-input', 'report does not have the shape of an OriginReport; nothing was written');
    await this.write(['reports', 'pins', 'approvals'], async (tx) => {
      await tx.objectStore('reports').put({ origin: r.origin, order: reportOrder(r), report: r });
      await evictReports(tx, this.limits.reports, r.origin);
    });
  }

  async listReports(): Promise<OriginReport[]> {
    const raws: unknown[] = await this.read(['reports'], (tx) => tx.objectStore('reports').getAll());
    return this.checkedAll('reports', raws, toReportRecord, (r) => (r as { origin?: unknown } | null)?.origin).map((rec) => rec.report);
  }

  // ------------------------------------------------------------------ one probe's reads

  async getOriginState(origin: string): Promise<OriginState> {
    const raw = await this.read(['pins', 'approvals', 'skills', 'cache'], async (tx) => {
      const range = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
      // Cache entries are keyed by URL: every key that starts with `origin/` ('0' follows '/').
      const urls = IDBKeyRange.bound(origin + '/', origin + '0', false, true);
      const [pin, approvals, skills, cache] = await Promise.all([
        tx.objectStore('pins').get(origin),
        tx.objectStore('approvals').index('by-origin').getAll(origin),
        tx.objectStore('skills').index('by-origin-storedAt').getAll(range),
        tx.objectStore('cache').getAll(urls),
      ]);
      return { pin: pin as unknown, approvals: approvals as unknown[], skills: skills as unknown[], cache: cache as unknown[] };
    });
    return {
      pin: this.checked('pins', origin, raw.pin, toPin),
      approvals: this.checkedAll('approvals', raw.approvals, toApproval, approvalKeyOf),
      skills: this.checkedAll('skills', raw.skills, toStoredSkill, skillKeyOf),
      cache: this.checkedAll('cache', raw.cache, toCacheEntry, (r) => (r as { url?: unknown } | null)?.url),
    };
  }

  // ------------------------------------------------------------------ settings

  async getSettings(): Promise<Settings> {
    const raw: unknown = await this.read(['settings'], (tx) => tx.objectStore('settings').get(SETTINGS_KEY));
    const { settings, invalid } = readSettings(raw);
    if (invalid.length > 0) {
      this.report(
        new StoreError('corrupt-record', `settings: unusable ${invalid.join(', ')} replaced by defaults (the stored record is kept)`, {
          store: 'settings',
          key: SETTINGS_KEY,
        }),
      );
    }
    return settings;
  }

  async putSettings(settings: Settings): Promise<void> {
    if (!isCompleteSettings(settings)) throw new StoreError('invalid-input', 'settings do not have the shape of Settings; nothing was written');
    const record = pickSettings(settings);
    await this.write(['settings'], (tx) => tx.objectStore('settings').put(record, SETTINGS_KEY));
  }

  close(): void {
    this.closedReason ??= new StoreError('closed', 'the trust store was closed');
    this.db.close();
  }
}

/**
 * The stored form of a skill: compact bytes and their count (read by the byte budgets). An
 * archive's kept files count toward its size: the budgets bound every byte stored.
 */
function skillRecord(s: StoredSkill): SkillRecord {
  const bytes = compactBytes(s.bytes);
  const files = s.archive?.files?.map((f) => ({ path: f.path, bytes: compactBytes(f.bytes) }));
  const size = bytes.byteLength + (files ?? []).reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (!s.archive || !files) return { ...s, bytes, size };
  return { ...s, bytes, archive: { ...s.archive, files }, size };
}

function writtenKey(s: StoredSkill): string {
  return `${s.origin}\n${s.url}\n${s.digestLf}`;
}

function approvalKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; url?: unknown } | null;
  return [r?.origin, r?.url];
}

function keyEntryKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; fingerprint?: unknown } | null;
  return [r?.origin, r?.fingerprint];
}

function byFirstSeen(a: KeyHistoryEntry, b: KeyHistoryEntry): number {
  return a.firstSeen - b.firstSeen || (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0);
}

function isCarryOver(v: unknown): v is CarryOver {
  const c = v as { url?: unknown; digestLf?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.url === 'string' && typeof c.digestLf === 'string';
}

function skillKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; url?: unknown; digestLf?: unknown } | null;
  return [r?.origin, r?.url, r?.digestLf];
}

export async function openTrustStore(opts: StoreOptions = {}): Promise<TrustStore> {
  const limits = {
    cache: positiveInt(opts.maxCacheEntries, DEFAULT_MAX_CACHE_ENTRIES, 'maxCacheEntries'),
    reports: positiveInt(opts.maxReports, DEFAULT_MAX_REPORTS, 'maxReports'),
    skillsPerOrigin: positiveInt(opts.maxSkillsPerOrigin, DEFAULT_MAX_SKILLS_PER_ORIGIN, 'maxSkillsPerOrigin'),
    skillBytesPerOrigin: positiveInt(opts.maxSkillBytesPerOrigin, DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN, 'maxSkillBytesPerOrigin'),
    skillBytes: positiveInt(opts.maxSkillBytes, DEFAULT_MAX_SKILL_BYTES, 'maxSkillBytes'),
  };
  const blockedTimeoutMs = opts.blockedTimeoutMs ?? DEFAULT_BLOCKED_TIMEOUT_MS;
  const factory = opts.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new StoreError('unknown', 'IndexedDB is not available in this context');
  const db = await openDatabase({ factory, name: opts.name ?? DB_NAME, blockedTimeoutMs });
  return new IdbTrustStore(db, limits, opts.onError ?? (() => undefined));
}
