import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { StoreError, classifyIdbError } from '../../../lib/store/errors';
import { openTrustStore } from '../../../lib/store/idb-store';
import { SCHEMA_VERSION } from '../../../lib/store/schema';
import { openV1, writeV1 } from '../../fixtures/trust/v1-database';
import { v1Sample, V1_ORIGIN } from '../../fixtures/trust/v1-sample';
import { freshStore, keyPair, rawOpen } from './helpers';

describe('classifyIdbError', () => {
  it.each([
    [new DOMException('full', 'QuotaExceededError'), 'quota-exceeded'],
    [{ name: 'NS_ERROR_DOM_QUOTA_REACHED', message: 'reached' }, 'quota-exceeded'],
    [{ name: 'Error', code: 22, message: 'storage' }, 'quota-exceeded'],
    [new DOMException('too new', 'VersionError'), 'version-error'],
    [new DOMException('bad key', 'DataError'), 'invalid-input'],
    [new DOMException('no clone', 'DataCloneError'), 'invalid-input'],
    [new DOMException('The database connection is closing.', 'InvalidStateError'), 'closed'],
    [new Error('boom'), 'unknown'],
    ['text', 'unknown'],
    [null, 'unknown'],
  ] as const)('%o → %s', (input, code) => {
    const e = classifyIdbError(input);
    expect(e).toBeInstanceOf(StoreError);
    expect(e.code).toBe(code);
    expect(e.message.length).toBeGreaterThan(0);
  });

  it('passes a StoreError through unchanged', () => {
    const original = new StoreError('blocked', 'x');
    expect(classifyIdbError(original)).toBe(original);
  });
});

describe('opening', () => {
  it('refuses nonsense bounds', async () => {
    await expect(openTrustStore({ indexedDB: new IDBFactory(), maxCacheEntries: 0 })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(openTrustStore({ indexedDB: new IDBFactory(), maxReports: 1.5 })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('uses the global indexedDB and the name skillpin by default', async () => {
    const store = await openTrustStore();
    const k = keyPair(1);
    await store.pinIfAbsent('https://default.example', k.key, k.fingerprint, 1);
    store.close();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('skillpin');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    expect(db.version).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('an upgrade blocked by an old connection fails with blocked after the timeout instead of hanging', async () => {
    const factory = new IDBFactory();
    const old = await openV1(factory, 'busy'); // an old page that ignores versionchange
    await writeV1(old, v1Sample());
    const started = Date.now();
    const err = await openTrustStore({ name: 'busy', indexedDB: factory, blockedTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('blocked');
    expect(Date.now() - started).toBeLessThan(5000);
    // Once the old page goes away, the next open upgrades and finds the data. Its own timeout is
    // long: on a loaded machine the upgrade may start later than 50 ms, which is not what this tests.
    old.close();
    const store = await openTrustStore({ name: 'busy', indexedDB: factory, blockedTimeoutMs: 2000 });
    expect(await store.getPin(V1_ORIGIN)).not.toBeNull();
    store.close();
  });

  it('an upgrade waits for an old connection that closes within the timeout', async () => {
    const factory = new IDBFactory();
    const old = await openV1(factory, 'briefly-busy');
    await writeV1(old, v1Sample());
    setTimeout(() => old.close(), 30);
    const store = await openTrustStore({ name: 'briefly-busy', indexedDB: factory, blockedTimeoutMs: 2000 });
    expect(await store.getPin(V1_ORIGIN)).not.toBeNull();
    store.close();
  });

  it('closes its connection on versionchange so a newer version is not blocked, and says so', async () => {
    const { store, factory, name, errors } = await freshStore();
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = factory.open(name, SCHEMA_VERSION + 1);
      r.onblocked = () => reject(new Error('blocked by the store'));
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    expect(newer.version).toBe(SCHEMA_VERSION + 1);
    newer.close();
    expect(errors.map((e) => e.code)).toEqual(['version-error']);
    await expect(store.getPin('https://a.example')).rejects.toMatchObject({ code: 'version-error' });
  });

  it('a closed store refuses calls with closed', async () => {
    const { store } = await freshStore();
    store.close();
    await expect(store.listPins()).rejects.toMatchObject({ code: 'closed' });
    const k = keyPair(1);
    await expect(store.pinIfAbsent('https://a.example', k.key, k.fingerprint, 1)).rejects.toMatchObject({ code: 'closed' });
  });

  it('two stores on one database see each other’s writes', async () => {
    const { store, factory, name } = await freshStore();
    const other = await openTrustStore({ name, indexedDB: factory });
    const k = keyPair(5);
    await store.pinIfAbsent('https://shared.example', k.key, k.fingerprint, 1);
    expect((await other.getPin('https://shared.example'))?.fingerprint).toBe(k.fingerprint);
    other.close();
    const raw = await rawOpen(factory, name);
    expect(raw.version).toBe(SCHEMA_VERSION);
    raw.close();
  });
});
