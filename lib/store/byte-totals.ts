// Running byte totals of the stored skill bytes: per origin and for all origins, kept in
// the `totals` store and changed by every write of the skills store in the same transaction, so the
// byte budgets (evict.ts) read two numbers instead of walking every record on each write. A crash
// loses the transaction whole: record and total commit together or not at all. A total that is
// missing or unreadable (a database written before the totals existed, a record edited by hand) is
// recomputed once from the size index and written back; a walk the eviction makes anyway corrects it.
import type { IDBPTransaction } from 'idb';
import { ALL_ORIGINS, countedSize, type SkillKey, type SkillRecord, type SkillpinDB } from './schema';
import { isFiniteNumber, isObject } from './validate';

/** A readwrite transaction over (at least) the skills and totals stores. */
export type TotalsTx = IDBPTransaction<SkillpinDB, ['skills', 'totals'], 'readwrite'>;

/** The totals of one transaction: what is stored, the changes made so far, written by commit(). */
export class ByteTotals {
  /** The stored (or recomputed) value of each total read in this transaction. */
  private readonly base = new Map<string, number>();
  /** Changes since: bytes added (or removed, negative) per key. */
  private readonly delta = new Map<string, number>();
  /** Keys whose base was recomputed or corrected: written even without a change. */
  private readonly rewrite = new Set<string>();

  constructor(private readonly tx: TotalsTx) {}

  /** The bytes stored for `origin` (or ALL_ORIGINS) with this transaction's changes. */
  async bytes(key: string): Promise<number> {
    await this.load(key);
    return (this.base.get(key) ?? 0) + (this.delta.get(key) ?? 0);
  }

  /**
   * Writes records of distinct keys, each counted by its size instead of the size of the record it
   * replaces, with their requests placed together: the totals are read first, then every size of a
   * record being replaced, then every put (requests run in the order placed, so each size is read
   * before any of the puts).
   */
  async putAll(records: readonly SkillRecord[]): Promise<void> {
    for (const origin of new Set(records.map((r) => r.origin))) await this.prepare(origin);
    const befores = await Promise.all(records.map((r) => this.sizeOf([r.origin, r.url, r.digestLf, r.filesKey])));
    const skills = this.tx.objectStore('skills');
    await Promise.all(records.map((r) => skills.put(r)));
    records.forEach((r, i) => {
      this.add(r.origin, (countedSize(r) ?? 0) - (befores[i] ?? 0));
    });
  }

  /** Deletes the record `key`; `raw` is its stored value when the caller read it (its size is then not looked up). */
  async delete(key: SkillKey, raw?: unknown): Promise<void> {
    await this.prepare(key[0]);
    const size = raw === undefined ? await this.sizeOf(key) : (countedSize(raw) ?? 0);
    await this.tx.objectStore('skills').delete(key);
    this.add(key[0], -size);
  }

  /**
   * What a walk over the records of `key` (an origin or ALL_ORIGINS) found they hold now, after this
   * transaction's changes: the total is set to it when it differs.
   */
  correct(key: string, walked: number): void {
    const now = (this.base.get(key) ?? 0) + (this.delta.get(key) ?? 0);
    if (now === walked) return;
    this.base.set(key, walked - (this.delta.get(key) ?? 0));
    this.rewrite.add(key);
  }

  /** Writes every total this transaction changed, recomputed or corrected. */
  async commit(): Promise<void> {
    const store = this.tx.objectStore('totals');
    for (const key of new Set([...this.delta.keys(), ...this.rewrite])) {
      const bytes = (this.base.get(key) ?? 0) + (this.delta.get(key) ?? 0);
      // Below zero the total is wrong: dropped, it is recomputed the next time it is read.
      if (bytes >= 0) await store.put({ bytes }, key);
      else await store.delete(key);
    }
  }

  private add(origin: string, bytes: number): void {
    if (bytes === 0) return;
    for (const key of [origin, ALL_ORIGINS]) this.delta.set(key, (this.delta.get(key) ?? 0) + bytes);
  }

  /** Reads both totals a change of `origin` moves before the records change (a recount sees the store as it was). */
  private async prepare(origin: string): Promise<void> {
    await this.load(origin);
    await this.load(ALL_ORIGINS);
  }

  private async load(key: string): Promise<void> {
    if (this.base.has(key)) return;
    const stored: unknown = await this.tx.objectStore('totals').get(key);
    if (isObject(stored) && isFiniteNumber(stored.bytes) && stored.bytes >= 0) {
      this.base.set(key, stored.bytes);
      return;
    }
    this.base.set(key, (await this.walk(key)).bytes);
    this.rewrite.add(key);
  }

  /**
   * The records the size indexes count for `key` (an origin or ALL_ORIGINS), oldest first, each with
   * its counted size, and their bytes together: a walk over their index keys, no bytes are loaded.
   */
  async walk(key: string): Promise<{ records: { pk: SkillKey; size: number }[]; bytes: number }> {
    const skills = this.tx.objectStore('skills');
    let cursor =
      key === ALL_ORIGINS
        ? await skills.index('by-storedAt-size').openKeyCursor()
        : await skills.index('by-origin-storedAt-size').openKeyCursor(IDBKeyRange.bound([key, -Infinity, -Infinity], [key, Infinity, Infinity]));
    const records: { pk: SkillKey; size: number }[] = [];
    let bytes = 0;
    while (cursor) {
      const k = cursor.key as unknown[];
      const size = k[k.length - 1];
      if (isFiniteNumber(size) && size >= 0) {
        bytes += size;
        records.push({ pk: cursor.primaryKey, size });
      }
      cursor = await cursor.continue();
    }
    return { records, bytes };
  }

  /** The counted size of the stored record `key`, read from the by-record-size index; 0 when there is none. */
  private async sizeOf(key: SkillKey): Promise<number> {
    const range = IDBKeyRange.bound([...key, -Infinity, -Infinity], [...key, Infinity, Infinity]);
    const cursor = await this.tx.objectStore('skills').index('by-record-size').openKeyCursor(range);
    const size = cursor ? (cursor.key as unknown[])[5] : undefined;
    return isFiniteNumber(size) && size >= 0 ? size : 0;
  }
}

/** Runs `body` with the totals of `tx` and writes them at its end (inside the same transaction). */
export async function withTotals<T>(tx: TotalsTx, body: (totals: ByteTotals) => Promise<T>): Promise<T> {
  const totals = new ByteTotals(tx);
  const result = await body(totals);
  await totals.commit();
  return result;
}
