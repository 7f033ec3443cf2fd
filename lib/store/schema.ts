// The IndexedDB schema of the trust store and its migration path. One numbered step per
// version; a database at version n runs steps n+1 .. SCHEMA_VERSION in order inside the
// single versionchange transaction, so an upgrade either completes or leaves version n intact.
//
// v1  pins(origin) · approvals([origin,url], by-origin) · skills([origin,url,digestLf],
//     by-origin-url-storedAt, by-origin-storedAt) · cache(url, by-origin, by-storedAt) ·
//     reports(origin, by-order) · meta(out-of-line keys; 'settings' holds the Settings record)
// v2  settings move from `meta` into their own `settings` store (meta is dropped); cache records
//     gain `evictKey` = [positive ? 1 : 0, positive ? expiresAt : storedAt] and an index on it
//     (negatives oldest first, then positives by expiry), which replaces by-storedAt.
// v3  skill records gain `size` = bytes.byteLength and two indexes on it, by-storedAt-size
//     [storedAt, size] and by-origin-storedAt-size [origin, storedAt, size]: the byte budgets
//     (evict.ts) read sizes, oldest first, from index keys alone, without loading any bytes.
// v4  keys([origin,fingerprint], by-origin): the key history of each origin (PRODUCT.md §5); every
//     readable pin gets its entry (state `pinned`, its first/last seen). No other store changes.
// v5  skills are keyed [origin,url,digestLf,filesKey]: `filesKey` is an archive's file-set digest
//     ('' for a SKILL.md, and for every record an older version stored), so an archive with the same
//     SKILL.md but other files is a record of its own and never overwrites approved bytes (FORMATS.md
//     §6.6). The store is copied record by record into one with the new key, which then takes the
//     name `skills`; its indexes are those of v3 plus by-record-size [origin,url,digestLf,filesKey,
//     storedAt,size] (one record's counted size, read from an index key). totals (out-of-line keys): the running byte totals of
//     the stored skills per origin and for all origins (`*`, byte-totals.ts), computed here from the
//     records the size indexes count, then kept with every write in the same transaction.
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import type { Approval, Pin, Settings } from '../types';
import type { CacheRecord, KeyHistoryEntry, ProbeCacheEntry, ReportRecord, StoredSkill } from './records';
import { isFiniteNumber, toPin } from './validate';

export const DB_NAME = 'skillpin';
export const SCHEMA_VERSION = 5;

/** The key of the single settings record. */
export const SETTINGS_KEY = 'settings';

/** What the skills store holds: the skill plus its byte count (absent on records an upgrade could not read) and its files key. */
export interface SkillRecord extends StoredSkill {
  size?: number;
  /** filesKeyOf(the skill): the fourth part of the key. */
  filesKey: string;
}

/** The key of the skills store: [origin, url, digestLf, filesKey]. */
export type SkillKey = [string, string, string, string];
export const SKILL_KEY_PATH = ['origin', 'url', 'digestLf', 'filesKey'];

/** The key of the total over all origins in the totals store (an origin never is `*`). */
export const ALL_ORIGINS = '*';

export interface SkillpinDB extends DBSchema {
  pins: { key: string; value: Pin };
  approvals: { key: [string, string]; value: Approval; indexes: { 'by-origin': string } };
  skills: {
    key: SkillKey;
    value: SkillRecord;
    indexes: {
      'by-origin-url-storedAt': [string, string, number];
      'by-origin-storedAt': [string, number];
      'by-storedAt-size': [number, number];
      'by-origin-storedAt-size': [string, number, number];
      'by-record-size': [string, string, string, string, number, number];
    };
  };
  /** One running byte total of the stored skills per origin, and for all origins (byte-totals.ts). */
  totals: { key: string; value: { bytes: number } };
  cache: { key: string; value: CacheRecord; indexes: { 'by-origin': string; 'by-evict': [number, number] } };
  reports: { key: string; value: ReportRecord; indexes: { 'by-order': number } };
  settings: { key: string; value: Settings };
  keys: { key: [string, string]; value: KeyHistoryEntry; indexes: { 'by-origin': string } };
}

/** Historical steps address stores that no longer exist, so they work on the untyped database. */
export type UpgradeDb = IDBPDatabase<unknown>;
export type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
type Step = (db: UpgradeDb, tx: UpgradeTx) => void | Promise<void>;

/** Eviction order of a probe cache entry: every negative before every positive. */
export function cacheEvictKey(entry: Pick<ProbeCacheEntry, 'positive' | 'storedAt' | 'expiresAt'>): [number, number] {
  return entry.positive ? [1, entry.expiresAt] : [0, entry.storedAt];
}

/** A stored value's fields, when it is an object (an older version may have stored anything). */
function fieldsOf(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
}

const v1: Step = (db) => {
  db.createObjectStore('pins', { keyPath: 'origin' });
  const approvals = db.createObjectStore('approvals', { keyPath: ['origin', 'url'] });
  approvals.createIndex('by-origin', 'origin');
  const skills = db.createObjectStore('skills', { keyPath: ['origin', 'url', 'digestLf'] });
  skills.createIndex('by-origin-url-storedAt', ['origin', 'url', 'storedAt']);
  skills.createIndex('by-origin-storedAt', ['origin', 'storedAt']);
  const cache = db.createObjectStore('cache', { keyPath: 'url' });
  cache.createIndex('by-origin', 'origin');
  cache.createIndex('by-storedAt', 'storedAt');
  const reports = db.createObjectStore('reports', { keyPath: 'origin' });
  reports.createIndex('by-order', 'order');
  db.createObjectStore('meta');
};

const v2: Step = async (db, tx) => {
  // Structure first, synchronously, then move the data.
  const settings = db.createObjectStore('settings');
  const cache = tx.objectStore('cache');
  cache.deleteIndex('by-storedAt');
  cache.createIndex('by-evict', 'evictKey');

  if (db.objectStoreNames.contains('meta')) {
    // v1 kept exactly one record in meta: the settings, under SETTINGS_KEY.
    const old: unknown = await tx.objectStore('meta').get(SETTINGS_KEY);
    if (old !== undefined) await settings.put(old, SETTINGS_KEY);
    db.deleteObjectStore('meta');
  }

  let cursor = await cache.openCursor();
  while (cursor) {
    const rec = fieldsOf(cursor.value);
    // A record without a usable shape is kept as it is (it simply is not indexed).
    if (rec && typeof rec.positive === 'boolean' && isFiniteNumber(rec.storedAt) && isFiniteNumber(rec.expiresAt)) {
      await cursor.update({ ...rec, evictKey: cacheEvictKey({ positive: rec.positive, storedAt: rec.storedAt, expiresAt: rec.expiresAt }) });
    }
    cursor = await cursor.continue();
  }
};

const v3: Step = async (_db, tx) => {
  const skills = tx.objectStore('skills');
  skills.createIndex('by-storedAt-size', ['storedAt', 'size']);
  skills.createIndex('by-origin-storedAt-size', ['origin', 'storedAt', 'size']);
  let cursor = await skills.openCursor();
  while (cursor) {
    const rec = fieldsOf(cursor.value);
    const bytes = rec?.bytes;
    const size = bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes) ? bytes.byteLength : null;
    // A record without readable bytes is kept as it is: not indexed, so neither counted nor evicted.
    if (rec && size !== null && isFiniteNumber(rec.storedAt)) await cursor.update({ ...rec, size });
    cursor = await cursor.continue();
  }
};

const v4: Step = async (db, tx) => {
  const keys = db.createObjectStore('keys', { keyPath: ['origin', 'fingerprint'] });
  keys.createIndex('by-origin', 'origin');
  let cursor = await tx.objectStore('pins').openCursor();
  while (cursor) {
    const pin = toPin(cursor.value);
    // An unreadable pin stays as it is and gets no history entry (readers skip it anyway).
    if (pin) {
      const entry: KeyHistoryEntry = {
        origin: pin.origin,
        fingerprint: pin.fingerprint,
        key: pin.key,
        firstSeen: pin.firstSeen,
        lastSeen: pin.lastSeen,
        state: 'pinned',
        revokedAt: null,
      };
      await keys.put(entry);
    }
    cursor = await cursor.continue();
  }
};

/** The size the byte budgets count for a raw record: what the v3 size indexes hold, else null (not counted). */
export function countedSize(raw: unknown): number | null {
  const rec = fieldsOf(raw);
  if (!rec || !isFiniteNumber(rec.storedAt) || !isFiniteNumber(rec.size) || rec.size < 0) return null;
  return rec.size;
}

const v5: Step = async (db, tx) => {
  const next = db.createObjectStore('skills-v5', { keyPath: SKILL_KEY_PATH });
  next.createIndex('by-origin-url-storedAt', ['origin', 'url', 'storedAt']);
  next.createIndex('by-origin-storedAt', ['origin', 'storedAt']);
  next.createIndex('by-storedAt-size', ['storedAt', 'size']);
  next.createIndex('by-origin-storedAt-size', ['origin', 'storedAt', 'size']);
  next.createIndex('by-record-size', [...SKILL_KEY_PATH, 'storedAt', 'size']);
  const totals = db.createObjectStore('totals');
  const sums = new Map<string, number>();
  let all = 0;
  let cursor = await tx.objectStore('skills').openCursor();
  while (cursor) {
    const rec = fieldsOf(cursor.value);
    // A record is an object (its key came from its fields); it keeps every field and gains its files key.
    if (rec) {
      const archive = rec.archive as { filesDigest?: unknown } | undefined;
      const filesKey = typeof archive === 'object' && archive !== null && typeof archive.filesDigest === 'string' ? archive.filesDigest : '';
      await next.put({ ...rec, filesKey });
      const size = countedSize(rec);
      if (size !== null) {
        const origin = String(rec.origin);
        sums.set(origin, (sums.get(origin) ?? 0) + size);
        all += size;
      }
    }
    cursor = await cursor.continue();
  }
  db.deleteObjectStore('skills');
  next.name = 'skills';
  for (const [origin, bytes] of sums) await totals.put({ bytes }, origin);
  await totals.put({ bytes: all }, ALL_ORIGINS);
};

/** STEPS[i] upgrades a database from version i to version i + 1. */
const STEPS: readonly Step[] = [v1, v2, v3, v4, v5];

if (STEPS.length !== SCHEMA_VERSION) throw new Error('schema: one upgrade step per version');

/**
 * Runs every step after `oldVersion` up to `newVersion` inside the versionchange transaction.
 * Returns the promise of the whole chain; a failing step aborts the transaction, which keeps
 * the database at `oldVersion` and makes the open fail.
 */
export function upgrade(db: UpgradeDb, oldVersion: number, newVersion: number | null, tx: UpgradeTx): Promise<void> {
  const target = newVersion ?? SCHEMA_VERSION;
  const run = async (): Promise<void> => {
    for (let version = oldVersion + 1; version <= target; version++) {
      const step = STEPS[version - 1];
      if (!step) throw new Error(`schema: no upgrade step for version ${version}`);
      await step(db, tx);
    }
  };
  return run().catch((e: unknown) => {
    try {
      tx.abort();
    } catch {
      // The transaction already ended; the open fails on its own.
    }
    throw e;
  });
}
