// Bounds on what the trust store keeps. Each function runs inside the caller's readwrite
// transaction, so eviction and the write that triggered it commit or fail together; every record
// of the skills store removed here goes through the transaction's byte totals (byte-totals.ts).
// Records a reader would refuse (corrupt) are never evicted: they are kept as they are.
import type { IDBPObjectStore, IDBPTransaction, StoreNames } from 'idb';
import type { ByteTotals } from './byte-totals';
import { StoreError } from './errors';
import { filesKeyOf, storedKey } from './records';
import type { StoreLimits } from './idb-core';
import { ALL_ORIGINS, type SkillKey, type SkillpinDB, type SkillRecord } from './schema';
import { toApproval, toStoredSkill } from './validate';

/** A readwrite transaction over the approvals, the verified bytes and their totals. */
export type SkillsTx = IDBPTransaction<SkillpinDB, ['approvals', 'skills', 'totals'], 'readwrite'>;

/** A readwrite transaction over the reports and what their eviction reads and removes. */
export type ReportsTx = IDBPTransaction<SkillpinDB, ['reports', 'pins', 'approvals', 'skills', 'totals'], 'readwrite'>;

type Names = StoreNames<SkillpinDB>;
type Store<S extends Names, Tx extends ArrayLike<Names>> = IDBPObjectStore<SkillpinDB, Tx, S, 'readwrite'>;

/** A cursor over keys, as far as an eviction walks it. */
interface KeyCursor<K> {
  primaryKey: K;
  continue(): Promise<KeyCursor<K> | null>;
}

/**
 * Removes `excess` records (none when it is 0 or less), walking `index` in its order: `evict`
 * removes the record of a key when it may and says whether it did.
 */
async function evictExcess<K>(excess: number, index: { openKeyCursor(): Promise<KeyCursor<K> | null> }, evict: (key: K) => Promise<boolean>): Promise<void> {
  if (excess <= 0) return;
  let cursor = await index.openKeyCursor();
  while (cursor && excess > 0) {
    if (await evict(cursor.primaryKey)) excess--;
    cursor = await cursor.continue();
  }
}

/**
 * Keeps the reports store at `max` reports, evicting the oldest (finishedAt) first, but never
 * the report of an origin that has a pin or an approval, nor `keepOrigin`. An evicted origin's
 * stored skill bytes go with its report (none of them is approved: it has no approval).
 */
export async function evictReports(tx: ReportsTx, max: number, keepOrigin: string, totals: ByteTotals): Promise<void> {
  const reports = tx.objectStore('reports');
  const pins = tx.objectStore('pins');
  const approvals = tx.objectStore('approvals').index('by-origin');
  await evictExcess((await reports.count()) - max, reports.index('by-order'), async (origin) => {
    if (origin === keepOrigin || (await pins.getKey(origin)) !== undefined || (await approvals.count(origin)) > 0) return false;
    await reports.delete(origin);
    await dropUnapprovedSkills(tx as unknown as SkillsTx, origin, totals);
    return true;
  });
}

/**
 * Removes the stored skill bytes of `origin` that no approval binds (when its report goes). With
 * an unreadable approval the binding is unknown and every record stays; unreadable records stay too.
 */
async function dropUnapprovedSkills(tx: SkillsTx, origin: string, totals: ByteTotals): Promise<void> {
  const bound = await boundKeys(tx, origin);
  if (bound === null) return;
  await dropRecords(totals, await unkept(tx, origin, bound, Infinity));
}

/**
 * The readable records of `origin`, oldest first, whose key (recordKey) is not in `kept`, at most
 * `limit` of them, with their stored values: what an eviction may remove (an unreadable record it never does).
 */
async function unkept(tx: SkillsTx, origin: string, kept: ReadonlySet<string>, limit: number): Promise<{ key: SkillKey; raw: unknown }[]> {
  const out: { key: SkillKey; raw: unknown }[] = [];
  const range = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
  let cursor = await tx.objectStore('skills').index('by-origin-storedAt').openCursor(range);
  while (cursor && out.length < limit) {
    const skill = toStoredSkill(cursor.value);
    if (skill && !kept.has(storedKey(skill))) out.push({ key: cursor.primaryKey, raw: cursor.value });
    cursor = await cursor.continue();
  }
  return out;
}

async function dropRecords(totals: ByteTotals, records: readonly { key: SkillKey; raw: unknown }[]): Promise<void> {
  for (const r of records) await totals.delete(r.key, r.raw);
}

/** A record's key as one string: its parts joined by newlines, as storedKey writes a skill's. */
function recordKey(pk: readonly unknown[]): string {
  return pk.map(String).join('\n');
}

/** The key of the record just written for a URL. */
function writtenKey(w: WrittenSkill): string {
  return recordKey([w.origin, w.url, w.digestLf, w.filesKey]);
}

/** The bindings of the origin's approvals, or null when one is unreadable (its binding is unknown). */
async function boundKeys(tx: SkillsTx, origin: string): Promise<Set<string> | null> {
  const bound = new Set<string>();
  for (const raw of (await tx.objectStore('approvals').index('by-origin').getAll(origin)) as unknown[]) {
    const approval = toApproval(raw);
    if (!approval) return null;
    bound.add(storedKey(approval));
  }
  return bound;
}

/** The record just written for a URL: its LF digest and files key. */
export type WrittenSkill = Pick<SkillRecord, 'origin' | 'url' | 'digestLf' | 'filesKey'>;

/**
 * Keeps the probe cache at `max` entries, checked once after a batch of writes: negative entries go
 * first, oldest storedAt first; positive entries only when no negative is left, earliest expiresAt
 * first. No entry of `keepUrls` (the batch just written) is evicted.
 */
export async function evictCache<Tx extends ArrayLike<Names>>(store: Store<'cache', Tx>, max: number, keepUrls: ReadonlySet<string>): Promise<void> {
  await evictExcess((await store.count()) - max, store.index('by-evict'), async (url) => {
    if (keepUrls.has(url)) return false;
    await store.delete(url);
    return true;
  });
}

/**
 * Bounds the stored bytes after records were written (one, or a batch), with one read per origin
 * and per URL: for each written URL only its latest bytes, the bytes last written for it and the
 * bytes an approval binds are kept; then each origin is
 * brought back to `maxPerOrigin` records, oldest unprotected first, every record of the batch
 * counting as protected. Unreadable records are never evicted, and an unreadable approval keeps
 * every record of its origin.
 */
export async function pruneSkills(tx: SkillsTx, written: readonly WrittenSkill[], maxPerOrigin: number, totals: ByteTotals): Promise<void> {
  const skills = tx.objectStore('skills');
  const byUrl = skills.index('by-origin-url-storedAt');
  const origins = [...new Set(written.map((w) => w.origin))];
  // The last record written for each (origin, url) is the one a single write would keep.
  const lastWritten = new Map<string, WrittenSkill>();
  for (const w of written) lastWritten.set(`${w.origin}\n${w.url}`, w);

  const boundLists = await Promise.all(origins.map((o) => boundKeys(tx, o)));
  const bound = new Map<string, Set<string> | null>(origins.map((o, i) => [o, boundLists[i] ?? null]));

  // 1. Each written URL: the latest record plus the protected ones (records read in one go per URL).
  const targets = [...lastWritten.values()].filter((w) => bound.get(w.origin) !== null);
  // A URL with one record keeps it (it is the latest): only URLs with more are read with their bytes.
  const urlRange = (w: WrittenSkill): IDBKeyRange => IDBKeyRange.bound([w.origin, w.url, -Infinity], [w.origin, w.url, Infinity]);
  const counts = await Promise.all(targets.map((w) => byUrl.count(urlRange(w))));
  const perUrl = await Promise.all(targets.map((w, i) => ((counts[i] ?? 0) > 1 ? byUrl.getAll(urlRange(w)) : Promise.resolve([]))));
  const deletions: { key: SkillKey; raw: unknown }[] = [];
  targets.forEach((w, i) => {
    const protectedSet = bound.get(w.origin) as Set<string>;
    // Index order is storedAt ascending, then the primary key: the latest record comes last.
    const raws = (perUrl[i] ?? []) as unknown[];
    const records = raws.map((raw) => ({ raw, s: toStoredSkill(raw) })).filter((r) => r.s !== null);
    records.pop();
    for (const { raw, s } of records) {
      if (!s) continue;
      const key = storedKey(s);
      if (key === writtenKey(w) || protectedSet.has(key)) continue;
      deletions.push({ key: [s.origin, s.url, s.digestLf, filesKeyOf(s)], raw });
    }
  });
  await dropRecords(totals, deletions);

  // 2. Each origin: oldest unprotected records first.
  const byOrigin = skills.index('by-origin-storedAt');
  for (const origin of origins) {
    const protectedSet = bound.get(origin);
    if (!protectedSet) continue;
    const kept = new Set(protectedSet);
    for (const w of written) if (w.origin === origin) kept.add(writtenKey(w));
    const excess = (await byOrigin.count(IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]))) - maxPerOrigin;
    if (excess > 0) await dropRecords(totals, await unkept(tx, origin, kept, excess));
  }
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Which records an eviction must keep: approved ones, the ones just written, and every record of an origin with an unreadable approval. */
function protection(tx: SkillsTx, written: ReadonlySet<string>): (pk: SkillKey) => Promise<boolean> {
  // The approvals are read once, and only when something has to be evicted.
  let approvals: { keys: Set<string>; unsafeOrigins: Set<string>; all: boolean } | null = null;
  return async (pk) => {
    if (!approvals) {
      const read = { keys: new Set<string>(), unsafeOrigins: new Set<string>(), all: false };
      for (const raw of (await tx.objectStore('approvals').getAll()) as unknown[]) {
        const approval = toApproval(raw);
        if (approval) {
          read.keys.add(storedKey(approval));
          continue;
        }
        // An unreadable approval binds unknown bytes: keep its origin's records, or all of them.
        const origin = (raw as { origin?: unknown } | null)?.origin;
        if (typeof origin === 'string') read.unsafeOrigins.add(origin);
        else read.all = true;
      }
      approvals = read;
    }
    const key = recordKey(pk);
    return approvals.all || written.has(key) || approvals.keys.has(key) || approvals.unsafeOrigins.has(pk[0]);
  };
}

/**
 * Keeps the stored skill bytes within the byte budgets of `limits` after a write to `origins`: each
 * of those origins within `skillBytesPerOrigin` bytes, the whole store within `skillBytes` bytes
 * (the values and why: idb-store.ts). The running totals say
 * whether a budget is exceeded; only then are the records walked (index keys only, no bytes
 * loaded), oldest first, and records no approval binds evicted. Approved bytes are never evicted,
 * and neither are the records just written (`written`, `origin\nurl\ndigestLf\nfilesKey`) nor any
 * record of an origin with an unreadable approval (its binding is unknown). When that is not
 * enough and `refuse` is set, the write is refused with `over-budget` (the caller's transaction
 * aborts, so nothing written or evicted is kept); without `refuse` (an approval) the bytes stay.
 */
export async function enforceByteBudget(tx: SkillsTx, origins: readonly string[], written: ReadonlySet<string>, limits: StoreLimits, refuse: boolean, totals: ByteTotals): Promise<void> {
  const isProtected = protection(tx, written);
  /** Brings the records of `key` (an origin, or ALL_ORIGINS) within `limit`; returns the bytes left. */
  const bound = async (key: string, limit: number): Promise<number> => {
    if ((await totals.bytes(key)) <= limit) return totals.bytes(key);
    const { records, bytes: walked } = await totals.walk(key);
    // The walk knows the true figure: a total that drifted is set right here.
    totals.correct(key, walked);
    let left = walked;
    for (const r of records) {
      if (left <= limit) break;
      if (await isProtected(r.pk)) continue;
      await totals.delete(r.pk);
      left -= r.size;
    }
    return left;
  };

  for (const origin of new Set(origins)) {
    const left = await bound(origin, limits.skillBytesPerOrigin);
    if (left > limits.skillBytesPerOrigin && refuse) {
      throw new StoreError(
        'over-budget',
        `the skill bytes stored for ${origin} would be ${mib(left)}, over its ${mib(limits.skillBytesPerOrigin)} budget, and only approved bytes are left to make room; the new bytes were not stored and nothing stored before was removed`,
        { store: 'skills' },
      );
    }
  }
  const left = await bound(ALL_ORIGINS, limits.skillBytes);
  if (left > limits.skillBytes && refuse) {
    throw new StoreError(
      'over-budget',
      `the stored skill bytes would be ${mib(left)}, over the ${mib(limits.skillBytes)} budget of all sites, and only approved bytes are left to make room; the new bytes were not stored and nothing stored before was removed`,
      { store: 'skills' },
    );
  }
}
