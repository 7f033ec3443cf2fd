// Opening the database: runs the migration chain, turns a blocked upgrade into a StoreError
// after a timeout instead of waiting forever, and maps every failure to a StoreError.
import { wrap } from 'idb';
import type { IDBPDatabase } from 'idb';
import { StoreError, classifyIdbError } from './errors';
import { SCHEMA_VERSION, upgrade } from './schema';
import type { SkillpinDB, UpgradeDb, UpgradeTx } from './schema';

export interface OpenOptions {
  factory: IDBFactory;
  name: string;
  version?: number;
  /** How long to wait for other connections to let go after `blocked` fires. */
  blockedTimeoutMs: number;
}

export function openDatabase(opts: OpenOptions): Promise<IDBPDatabase<SkillpinDB>> {
  const version = opts.version ?? SCHEMA_VERSION;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A request queued behind another pending open (e.g. an earlier one still blocked) gets
    // neither `blocked` nor `upgradeneeded` until that one ends: it waits as long, then fails.
    let queued: ReturnType<typeof setTimeout> | undefined;
    const stopQueued = (): void => {
      if (queued !== undefined) clearTimeout(queued);
      queued = undefined;
    };
    let migrationError: unknown;
    const fail = (error: StoreError): void => {
      if (timer !== undefined) clearTimeout(timer);
      stopQueued();
      if (settled) return;
      settled = true;
      reject(error);
    };

    let request: IDBOpenDBRequest;
    try {
      request = opts.factory.open(opts.name, version);
    } catch (e) {
      fail(classifyIdbError(e));
      return;
    }

    queued = setTimeout(() => {
      queued = undefined;
      fail(new StoreError('blocked', 'the trust database is held by another open or upgrade that has not finished; close other Skillpin pages and try again'));
    }, opts.blockedTimeoutMs);

    request.onupgradeneeded = (event) => {
      stopQueued();
      const rawTx = request.transaction;
      if (!rawTx) return;
      const tx = wrap(rawTx) as unknown as UpgradeTx;
      // The open request reports the outcome; the transaction's own promise is not needed.
      tx.done.catch(() => undefined);
      upgrade(wrap(request.result) as unknown as UpgradeDb, event.oldVersion, event.newVersion, tx).catch((e: unknown) => {
        migrationError = e;
      });
    };

    request.onblocked = (event) => {
      stopQueued();
      if (settled || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        fail(new StoreError('blocked', `another Skillpin page keeps the trust database open at version ${event.oldVersion}; close it and try again`));
      }, opts.blockedTimeoutMs);
    };

    request.onsuccess = () => {
      if (timer !== undefined) clearTimeout(timer);
      stopQueued();
      const db = request.result;
      if (settled) {
        // The caller already got `blocked`; nobody will use this late connection.
        db.close();
        return;
      }
      settled = true;
      resolve(wrap(db) as unknown as IDBPDatabase<SkillpinDB>);
    };

    request.onerror = (event) => {
      event.preventDefault();
      const error = request.error;
      if (migrationError !== undefined) {
        const detail = migrationError instanceof Error ? migrationError.message : String(migrationError);
        fail(new StoreError('version-error', `trust database migration failed, the old version was kept: ${detail}`, { cause: migrationError }));
        return;
      }
      fail(classifyIdbError(error));
    };
  });
}
