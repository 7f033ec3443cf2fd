// A trust store of its own for one test: the real IndexedDB store (lib/store/idb-store.ts) in a
// fresh fake-indexeddb, under a name no other test uses, with the record errors it reported.
// The factory and name let a test open a second connection or read the raw records.
import { IDBFactory } from 'fake-indexeddb';
import type { StoreError } from '../../lib/store/errors';
import { openTrustStore, type StoreOptions } from '../../lib/store/idb-store';
import type { TrustStore } from '../../lib/store/store-api';

export interface TestStore {
  store: TrustStore;
  factory: IDBFactory;
  name: string;
  errors: StoreError[];
}

let counter = 0;

/** Options override the defaults (a test of limits passes its caps; one that watches errors may pass onError). */
export async function openTestStore(opts: StoreOptions = {}): Promise<TestStore> {
  const factory = new IDBFactory();
  const name = `skillpin-test-${++counter}`;
  const errors: StoreError[] = [];
  const store = await openTrustStore({ name, indexedDB: factory, onError: (e) => errors.push(e), ...opts });
  return { store, factory, name, errors };
}

/** Every record of every object store of the database `name`, read through a connection of its own. */
export async function dumpDatabase(factory: IDBFactory, name: string): Promise<Record<string, unknown[]>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  try {
    const out: Record<string, unknown[]> = {};
    for (const store of Array.from(db.objectStoreNames)) {
      out[store] = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(store, 'readonly').objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as unknown[]);
        req.onerror = () => reject(req.error);
      });
    }
    return out;
  } finally {
    db.close();
  }
}
