// The plumbing every part of the IndexedDB trust store shares: one connection, one readwrite
// (or readonly) transaction per call with strict durability, errors classified into StoreError,
// and record validation that reports and skips a record that fails, keeping it as it is.
import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { StoreError, classifyIdbError } from './errors';
import type { SkillpinDB } from './schema';

type Names = StoreNames<SkillpinDB>;

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

/** The key of a raw approval record, for reporting it when it is unreadable. */
export function approvalKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; url?: unknown } | null;
  return [r?.origin, r?.url];
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

  /** Validates a raw record; reports and skips it when it fails. */
  checked<T>(store: string, key: unknown, raw: unknown, validate: (v: unknown) => T | null): T | null {
    if (raw === undefined) return null;
    const value = validate(raw);
    if (value === null) this.corrupt(store, key);
    return value;
  }

  checkedAll<T>(store: string, raws: unknown[], validate: (v: unknown) => T | null, keyOf: (v: unknown) => unknown): T[] {
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

  budget(): { perOrigin: number; total: number } {
    return { perOrigin: this.limits.skillBytesPerOrigin, total: this.limits.skillBytes };
  }

  close(): void {
    this.closedReason ??= new StoreError('closed', 'the trust store was closed');
    this.db.close();
  }
}
