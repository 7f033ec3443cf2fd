// Bounds on what the trust store keeps. Each function runs inside the caller's readwrite
// transaction, so eviction and the write that triggered it commit or fail together.
// Records a reader would refuse (corrupt) are never evicted: they are kept as they are.
import type { IDBPObjectStore, IDBPTransaction, StoreNames } from 'idb';
import { StoreError } from './errors';
import type { SkillpinDB } from './schema';
import { toApproval, toStoredSkill } from './validate';

type Names = StoreNames<SkillpinDB>;
type Store<S extends Names, Tx extends ArrayLike<Names>> = IDBPObjectStore<SkillpinDB, Tx, S, 'readwrite'>;

/**
 * Keeps the probe cache at `max` entries: negative entries go first, oldest storedAt first;
 * positive entries only when no negative is left, earliest expiresAt first. The entry just
 * written is never evicted.
 */
export function evictCache<Tx extends ArrayLike<Names>>(store: Store<'cache', Tx>, max: number, keepUrl: string): Promise<number> {
  return evictCacheKeeping(store, max, new Set([keepUrl]));
}

/**
 * Keeps the reports store at `max` reports, evicting the oldest (finishedAt) first, but never
 * the report of an origin that has a pin or an approval, nor `keepOrigin`.
 */
export async function evictReports(
  tx: IDBPTransaction<SkillpinDB, ['reports', 'pins', 'approvals'], 'readwrite'>,
  max: number,
  keepOrigin: string,
): Promise<number> {
  const reports = tx.objectStore('reports');
  let excess = (await reports.count()) - max;
  let evicted = 0;
  if (excess <= 0) return 0;
  const pins = tx.objectStore('pins');
  const approvals = tx.objectStore('approvals').index('by-origin');
  let cursor = await reports.index('by-order').openKeyCursor();
  while (cursor && excess > 0) {
    const origin = cursor.primaryKey;
    if (origin !== keepOrigin) {
      const pinned = (await pins.getKey(origin)) !== undefined;
      const approved = !pinned && (await approvals.count(origin)) > 0;
      if (!pinned && !approved) {
        await reports.delete(origin);
        excess--;
        evicted++;
      }
    }
    cursor = await cursor.continue();
  }
  return evicted;
}

function bindingKey(url: string, digestLf: string): string {
  return `${url}\n${digestLf}`;
}

/**
 * Bounds the stored bytes of one origin after (origin, url, digestLf) was written:
 * for that URL only the latest bytes, the bytes just written and the bytes an approval binds
 * are kept; then, when the origin holds more than `maxPerOrigin` records, the oldest records
 * no approval binds are evicted. Bytes bound by an approval are never evicted.
 */
export async function pruneSkills(
  tx: IDBPTransaction<SkillpinDB, ['approvals', 'skills'], 'readwrite'>,
  origin: string,
  url: string,
  keptDigest: string,
  maxPerOrigin: number,
): Promise<number> {
  const skills = tx.objectStore('skills');
  const approvals = tx.objectStore('approvals');
  let evicted = 0;

  // The approvals of this origin decide what is protected. When one of them is unreadable,
  // its binding is unknown: keep every record of the origin rather than guess.
  const rawApprovals: unknown[] = await approvals.index('by-origin').getAll(origin);
  const bound = new Set<string>();
  for (const raw of rawApprovals) {
    const approval = toApproval(raw);
    if (!approval) return 0;
    bound.add(bindingKey(approval.url, approval.digestLf));
  }
  bound.add(bindingKey(url, keptDigest));

  // 1. This URL: the latest record plus the protected ones.
  const range = IDBKeyRange.bound([origin, url, -Infinity], [origin, url, Infinity]);
  let cursor = await skills.index('by-origin-url-storedAt').openCursor(range, 'prev');
  let latestSeen = false;
  while (cursor) {
    const skill = toStoredSkill(cursor.value);
    if (skill) {
      if (!latestSeen) latestSeen = true;
      else if (!bound.has(bindingKey(skill.url, skill.digestLf))) {
        await cursor.delete();
        evicted++;
      }
    }
    cursor = await cursor.continue();
  }

  // 2. The whole origin: oldest unprotected records first.
  const originRange = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
  const byOrigin = skills.index('by-origin-storedAt');
  let excess = (await byOrigin.count(originRange)) - maxPerOrigin;
  if (excess <= 0) return evicted;
  let oldest = await byOrigin.openCursor(originRange);
  while (oldest && excess > 0) {
    const skill = toStoredSkill(oldest.value);
    if (skill && !bound.has(bindingKey(skill.url, skill.digestLf))) {
      await oldest.delete();
      excess--;
      evicted++;
    }
    oldest = await oldest.continue();
  }
  return evicted;
}

/**
 * The cache bound (see evictCache), checked once after a batch of writes: no entry of
 * `keepUrls` (the batch just written) is evicted.
 */
export async function evictCacheKeeping<Tx extends ArrayLike<Names>>(store: Store<'cache', Tx>, max: number, keepUrls: ReadonlySet<string>): Promise<number> {
  let excess = (await store.count()) - max;
  let evicted = 0;
  if (excess <= 0) return 0;
  let cursor = await store.index('by-evict').openKeyCursor();
  while (cursor && excess > 0) {
    const url = cursor.primaryKey;
    if (!keepUrls.has(url)) {
      await store.delete(url);
      excess--;
      evicted++;
    }
    cursor = await cursor.continue();
  }
  return evicted;
}

/**
 * pruneSkills after a batch of records was written, with one read per origin and per URL
 * instead of one pass per record: for each written URL only its latest bytes, the bytes last
 * written for it in the batch and the bytes an approval binds are kept; then each origin is
 * brought back to `maxPerOrigin` records, oldest unprotected first, every record of the batch
 * counting as protected. Unreadable records are never evicted, and an unreadable approval keeps
 * every record of its origin.
 */
export async function pruneSkillsAfterBatch(
  tx: IDBPTransaction<SkillpinDB, ['approvals', 'skills'], 'readwrite'>,
  written: readonly { origin: string; url: string; digestLf: string }[],
  maxPerOrigin: number,
): Promise<number> {
  const skills = tx.objectStore('skills');
  const byUrl = skills.index('by-origin-url-storedAt');
  const origins = [...new Set(written.map((w) => w.origin))];
  // The last record written for each (origin, url) is the one a single write would keep.
  const lastWritten = new Map<string, { origin: string; url: string; digestLf: string }>();
  for (const w of written) lastWritten.set(`${w.origin}\n${w.url}`, w);

  const approvalLists = await Promise.all(origins.map((o) => tx.objectStore('approvals').index('by-origin').getAll(o)));
  const bound = new Map<string, Set<string> | null>();
  origins.forEach((o, i) => {
    const set = new Set<string>();
    for (const raw of approvalLists[i] ?? []) {
      const approval = toApproval(raw);
      if (!approval) {
        bound.set(o, null);
        return;
      }
      set.add(bindingKey(approval.url, approval.digestLf));
    }
    bound.set(o, set);
  });

  // 1. Each written URL: the latest record plus the protected ones (records read in one go per URL).
  const targets = [...lastWritten.values()].filter((w) => bound.get(w.origin) !== null);
  const perUrl = await Promise.all(
    targets.map((w) => byUrl.getAll(IDBKeyRange.bound([w.origin, w.url, -Infinity], [w.origin, w.url, Infinity]))),
  );
  const deletions: [string, string, string][] = [];
  targets.forEach((w, i) => {
    const protectedSet = bound.get(w.origin) as Set<string>;
    // Index order is storedAt ascending, then the primary key: the latest record comes last.
    const records = (perUrl[i] ?? []).map((raw) => toStoredSkill(raw)).filter((s): s is NonNullable<typeof s> => s !== null);
    records.pop();
    for (const s of records) {
      if (s.digestLf === w.digestLf || protectedSet.has(bindingKey(s.url, s.digestLf))) continue;
      deletions.push([s.origin, s.url, s.digestLf]);
    }
  });
  await Promise.all(deletions.map((key) => skills.delete(key)));
  let evicted = deletions.length;

  // 2. Each origin: oldest unprotected records first.
  const byOrigin = skills.index('by-origin-storedAt');
  for (const origin of origins) {
    const protectedSet = bound.get(origin);
    if (!protectedSet) continue;
    const kept = new Set(protectedSet);
    for (const w of written) if (w.origin === origin) kept.add(bindingKey(w.url, w.digestLf));
    const originRange = IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]);
    let excess = (await byOrigin.count(originRange)) - maxPerOrigin;
    if (excess <= 0) continue;
    let oldest = await byOrigin.openCursor(originRange);
    while (oldest && excess > 0) {
      const skill = toStoredSkill(oldest.value);
      if (skill && !kept.has(bindingKey(skill.url, skill.digestLf))) {
        await oldest.delete();
        excess--;
        evicted++;
      }
      oldest = await oldest.continue();
    }
  }
  return evicted;
}

/** Byte budgets of the stored skill bytes (see idb-store.ts for the values and why). */
export interface ByteBudget {
  perOrigin: number;
  total: number;
}

function recordKey(pk: readonly unknown[]): string {
  return pk.map(String).join('\n');
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Keeps the stored skill bytes within `budget` after a write to `origins`: each of those
 * origins within `perOrigin` bytes, the whole store within `total` bytes. Over a budget,
 * records no approval binds are evicted oldest first; approved bytes are never evicted, and
 * neither are the records just written (`written`, `origin\nurl\ndigestLf`) nor any record of an
 * origin with an unreadable approval (its binding is unknown). When that is not enough and
 * `refuse` is set, the write is refused with `over-budget` (the caller's transaction aborts, so
 * nothing written or evicted is kept); without `refuse` (an approval) the bytes stay.
 * Sizes are read from the v3 size indexes' keys, so no bytes are loaded.
 */
export async function enforceByteBudget(
  tx: IDBPTransaction<SkillpinDB, ['approvals', 'skills'], 'readwrite'>,
  origins: readonly string[],
  written: ReadonlySet<string>,
  budget: ByteBudget,
  refuse: boolean,
): Promise<number> {
  const skills = tx.objectStore('skills');
  // The approvals are read once, and only when something has to be evicted.
  let approvals: { keys: Set<string>; unsafeOrigins: Set<string>; all: boolean } | null = null;
  const isProtected = async (pk: [string, string, string]): Promise<boolean> => {
    if (!approvals) {
      const read = { keys: new Set<string>(), unsafeOrigins: new Set<string>(), all: false };
      for (const raw of (await tx.objectStore('approvals').getAll()) as unknown[]) {
        const approval = toApproval(raw);
        if (approval) {
          read.keys.add(recordKey([approval.origin, approval.url, approval.digestLf]));
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

  let evicted = 0;
  /** Brings the records the index range holds within `limit`; returns the bytes left. */
  const bound = async (index: 'by-origin-storedAt-size' | 'by-storedAt-size', range: IDBKeyRange | null, limit: number): Promise<number> => {
    let total = 0;
    const records: { pk: [string, string, string]; size: number }[] = [];
    let cursor = await skills.index(index).openKeyCursor(range);
    while (cursor) {
      const key = cursor.key as unknown[];
      const size = key[key.length - 1];
      if (typeof size === 'number' && Number.isFinite(size) && size >= 0) {
        total += size;
        records.push({ pk: cursor.primaryKey, size });
      }
      cursor = await cursor.continue();
    }
    for (const r of records) {
      if (total <= limit) break;
      if (await isProtected(r.pk)) continue;
      await skills.delete(r.pk);
      total -= r.size;
      evicted++;
    }
    return total;
  };

  for (const origin of new Set(origins)) {
    const range = IDBKeyRange.bound([origin, -Infinity, -Infinity], [origin, Infinity, Infinity]);
    const left = await bound('by-origin-storedAt-size', range, budget.perOrigin);
    if (left > budget.perOrigin && refuse) {
      throw new StoreError(
        'over-budget',
        `the skill bytes stored for ${origin} would be ${mib(left)}, over its ${mib(budget.perOrigin)} budget, and only approved bytes are left to make room; the new bytes were not stored and nothing stored before was removed`,
        { store: 'skills' },
      );
    }
  }
  const left = await bound('by-storedAt-size', null, budget.total);
  if (left > budget.total && refuse) {
    throw new StoreError(
      'over-budget',
      `the stored skill bytes would be ${mib(left)}, over the ${mib(budget.total)} budget of all sites, and only approved bytes are left to make room; the new bytes were not stored and nothing stored before was removed`,
      { store: 'skills' },
    );
  }
  return evicted;
}
