// The plumbing every part of the IndexedDB trust store shares: one connection, one readwrite
// (or readonly) transaction per call with strict durability, errors classified into StoreError,
// and record validation that reports and skips a record that fails, keeping it as it is.
import type { IDBPDatabase, IDBPTransaction, StoreKey, StoreNames } from 'idb';
import { StoreError, classifyIdbError } from './errors';
import { SKILL_KEY_PATH, type SkillpinDB } from './schema';
import { toApproval, toCacheEntry, toKeyHistoryEntry, toPin, toReportRecord, toStoredSkill } from './validate';

type Names = StoreNames<SkillpinDB>;

/** Each store whose records are checked when read: the check, and the fields that hold a record's key (to report one that fails). */
const RECORDS = {
  pins: { check: toPin, keyPath: ['origin'] },
  keys: { check: toKeyHistoryEntry, keyPath: ['origin', 'fingerprint'] },
  approvals: { check: toApproval, keyPath: ['origin', 'url'] },
  skills: { check: toStoredSkill, keyPath: SKILL_KEY_PATH },
  cache: { check: toCacheEntry, keyPath: ['url'] },
  reports: { check: toReportRecord, keyPath: ['origin'] },
};

type CheckedStore = keyof typeof RECORDS;
type RecordOf<S extends CheckedStore> = NonNullable<ReturnType<(typeof RECORDS)[S]['check']>>;

/** The bounds openTrustStore resolved from its options (lib/store/idb-store.ts). */
export interface StoreLimits {
  cache: number;
  reports: number;
  skillsPerOrigin: number;
  skillBytesPerOrigin: number;
  skillBytes: number;
}

function keyText(key: unknown): string {
  return Array.isArray(key) ? key.map(String).join(' ') : String(key);
}

/** The key of a raw record of `store` (read from its key fields), for reporting it when it is unreadable. */
export function keyOf(store: CheckedStore, raw: unknown): unknown[] {
  return RECORDS[store].keyPath.map((field) => (raw as Record<string, unknown> | null)?.[field]);
}

export class StoreCore {
  private closedReason: StoreError | null = null;

  constructor(
    private readonly db: IDBPDatabase<SkillpinDB>,
    readonly limits: StoreLimits,
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

  report(e: StoreError): void {
    try {
      this.onError(e);
    } catch {
      // A failing error handler must not turn a read into a failure.
    }
  }

  corrupt(store: string, key: unknown): StoreError {
    const e = new StoreError('corrupt-record', `unreadable ${store} record ${keyText(key)} was skipped (it is kept unchanged)`, {
      store,
      key: keyText(key),
    });
    this.report(e);
    return e;
  }

  /** Checks a raw record of `store` stored under `key`; reports and skips it when it fails. */
  checked<S extends CheckedStore>(store: S, key: unknown, raw: unknown): RecordOf<S> | null {
    if (raw === undefined) return null;
    const value = RECORDS[store].check(raw) as RecordOf<S> | null;
    if (value === null) this.corrupt(store, key);
    return value;
  }

  checkedAll<S extends CheckedStore>(store: S, raws: unknown[]): RecordOf<S>[] {
    return raws.map((raw) => this.checked(store, keyOf(store, raw), raw)).filter((value) => value !== null);
  }

  /** The record of `store` under `key`, checked (in a transaction of its own). */
  async get<S extends CheckedStore>(store: S, key: StoreKey<SkillpinDB, S>): Promise<RecordOf<S> | null> {
    const raw: unknown = await this.read([store], (tx) => tx.objectStore(store).get(key));
    return this.checked(store, key, raw);
  }

  /** Every record of `store`, checked (in a transaction of its own). */
  async getAll<S extends CheckedStore>(store: S): Promise<RecordOf<S>[]> {
    const raws: unknown[] = await this.read([store], (tx) => tx.objectStore(store).getAll());
    return this.checkedAll(store, raws);
  }

  private connection(): IDBPDatabase<SkillpinDB> {
    if (this.closedReason) throw this.closedReason;
    return this.db;
  }

  private async run<S extends Names[], M extends IDBTransactionMode, T>(stores: S, mode: M, body: (tx: IDBPTransaction<SkillpinDB, S, M>) => Promise<T>): Promise<T> {
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

  read<S extends Names[], T>(stores: S, body: (tx: IDBPTransaction<SkillpinDB, S, 'readonly'>) => Promise<T>): Promise<T> {
    return this.run(stores, 'readonly', body);
  }

  write<S extends Names[], T>(stores: S, body: (tx: IDBPTransaction<SkillpinDB, S, 'readwrite'>) => Promise<T>): Promise<T> {
    return this.run(stores, 'readwrite', body);
  }

  close(): void {
    this.closedReason ??= new StoreError('closed', 'the trust store was closed');
    this.db.close();
  }
}
