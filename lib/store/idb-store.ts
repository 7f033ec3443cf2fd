// The trust store over IndexedDB. Every write is one readwrite transaction: compare-and-set
// on pins, approval plus bytes, write plus eviction. Every read checks the record's shape;
// a record that fails is skipped and reported through onError, and kept as it is.
//
// This file opens the database and composes the store from its parts, one file per concern:
// the shared plumbing (idb-core.ts), pins (idb-pins.ts), key history (idb-keys.ts), approvals
// (idb-approvals.ts), verified bytes (idb-skills.ts), probe cache (idb-cache.ts), reports
// (idb-reports.ts), one probe's reads (idb-origin-state.ts), one probe's writes (idb-commit.ts) and
// settings (idb-settings.ts). The same parts run over a database in memory for the private windows
// (openMemoryTrustStore, memory-db.ts).
import { StoreError } from './errors';
import { commitProbe } from './idb-commit';
import { getApprovals, approve, importApproval, revoke } from './idb-approvals';
import { deleteCacheForOrigin, putCacheEntries } from './idb-cache';
import { StoreCore, type StoreLimits } from './idb-core';
import { getKeyHistory, listKeyHistory, revokeKey } from './idb-keys';
import { getOriginState } from './idb-origin-state';
import { forgetPin, pinIfAbsent, pinsPage, replacePin } from './idb-pins';
import { putReport } from './idb-reports';
import { getSettings, putSettings } from './idb-settings';
import { getLatestSkill, putSkills } from './idb-skills';
import { openMemoryDatabase } from './memory-db';
import { openDatabase } from './open';
import { DB_NAME, type SkillpinDB } from './schema';
import type { IDBPDatabase } from 'idb';
import type { TrustStore } from './store-api';

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
 * Byte budgets of the stored skill bytes: records alone do not bound them.
 * Per origin 32 MiB: a probe stores at most 64 SKILL.md of at most 256 KiB (16 MiB), and the
 * approved versions of the same 64 skills may be kept beside them (another 16 MiB). All origins
 * together 256 MiB, far below what browsers grant an extension's IndexedDB. Over a budget the
 * oldest unapproved bytes go first; approved bytes are never evicted, and when only they are
 * left new unapproved bytes are refused (`over-budget`) instead (evict.ts).
 */
export const DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN = 32 * 1024 * 1024;
export const DEFAULT_MAX_SKILL_BYTES = 256 * 1024 * 1024;
export const DEFAULT_BLOCKED_TIMEOUT_MS = 5_000;
function positiveInt(v: number | undefined, fallback: number, field: string): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 1) throw new StoreError('invalid-input', `${field} must be a positive integer`);
  return v;
}

/** The TrustStore over one open connection: every method is one of the parts above, or a checked read of StoreCore, bound to it. */
export function createIdbStore(core: StoreCore): TrustStore {
  return {
    getPin: (origin) => core.get('pins', origin),
    pinIfAbsent: (origin, key, fingerprint, now) => pinIfAbsent(core, origin, key, fingerprint, now),
    replacePin: (origin, expected, key, fingerprint, now, carry) => replacePin(core, origin, expected, key, fingerprint, now, carry),
    forgetPin: (origin) => forgetPin(core, origin),
    listPins: () => core.getAll('pins'),
    pinsPage: (offset, limit) => pinsPage(core, offset, limit),
    getKeyHistory: (origin) => getKeyHistory(core, origin),
    listKeyHistory: () => listKeyHistory(core),
    revokeKey: (origin, fingerprint, at) => revokeKey(core, origin, fingerprint, at),
    getApprovals: (origin) => getApprovals(core, origin),
    getApproval: (origin, url) => core.get('approvals', [origin, url]),
    approve: (approval, skill, policyKey) => approve(core, approval, skill, policyKey),
    importApproval: (approval) => importApproval(core, approval),
    revoke: (origin, url) => revoke(core, origin, url),
    listApprovals: () => core.getAll('approvals'),
    putSkill: (skill) => putSkills(core, [skill]),
    putSkills: (skills) => putSkills(core, skills),
    getSkill: (origin, url, digestLf, filesDigest = '') => core.get('skills', [origin, url, digestLf, filesDigest]),
    getLatestSkill: (origin, url) => getLatestSkill(core, origin, url),
    getCache: (url) => core.get('cache', url),
    putCache: (entry) => putCacheEntries(core, [entry]),
    putCacheEntries: (entries) => putCacheEntries(core, entries),
    deleteCacheForOrigin: (origin) => deleteCacheForOrigin(core, origin),
    getReport: async (origin) => (await core.get('reports', origin))?.report ?? null,
    putReport: (report) => putReport(core, report),
    listReports: async () => (await core.getAll('reports')).map((rec) => rec.report),
    getOriginState: (origin) => getOriginState(core, origin),
    commitProbe: (commit) => commitProbe(core, commit),
    getSettings: () => getSettings(core),
    putSettings: (settings) => putSettings(core, settings),
    close: () => core.close(),
  };
}

function limitsOf(opts: StoreOptions): StoreLimits {
  return {
    cache: positiveInt(opts.maxCacheEntries, DEFAULT_MAX_CACHE_ENTRIES, 'maxCacheEntries'),
    reports: positiveInt(opts.maxReports, DEFAULT_MAX_REPORTS, 'maxReports'),
    skillsPerOrigin: positiveInt(opts.maxSkillsPerOrigin, DEFAULT_MAX_SKILLS_PER_ORIGIN, 'maxSkillsPerOrigin'),
    skillBytesPerOrigin: positiveInt(opts.maxSkillBytesPerOrigin, DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN, 'maxSkillBytesPerOrigin'),
    skillBytes: positiveInt(opts.maxSkillBytes, DEFAULT_MAX_SKILL_BYTES, 'maxSkillBytes'),
  };
}

export async function openTrustStore(opts: StoreOptions = {}): Promise<TrustStore> {
  const limits = limitsOf(opts);
  const blockedTimeoutMs = opts.blockedTimeoutMs ?? DEFAULT_BLOCKED_TIMEOUT_MS;
  const factory = opts.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new StoreError('unknown', 'IndexedDB is not available in this context');
  const db = await openDatabase({ factory, name: opts.name ?? DB_NAME, blockedTimeoutMs });
  return createIdbStore(new StoreCore(db, limits, opts.onError ?? (() => undefined)));
}

/** The same store over a database in this worker's memory (memory-db.ts), and that database: nothing it holds is ever written to disk. */
export async function openMemoryTrustStore(opts: Omit<StoreOptions, 'name' | 'indexedDB' | 'blockedTimeoutMs'> = {}): Promise<{ store: TrustStore; db: IDBPDatabase<SkillpinDB> }> {
  const db = await openMemoryDatabase();
  return { store: createIdbStore(new StoreCore(db, limitsOf(opts), opts.onError ?? (() => undefined))), db };
}
