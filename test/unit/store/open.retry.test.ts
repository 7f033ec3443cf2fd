// A second open while an earlier, blocked one is still queued behind an old connection: the
// browser never fires `blocked` for a queued request, so the wait must end on its own.
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { openTrustStore } from '../../../lib/store/idb-store';
import { StoreError } from '../../../lib/store/errors';
import { openV1, writeV1 } from '../../fixtures/trust/v1-database';
import { v1Sample, V1_ORIGIN } from '../../fixtures/trust/v1-sample';

describe('opening again after a blocked upgrade', () => {
  it('a retry queued behind the blocked open fails with blocked instead of hanging, and a later one succeeds', async () => {
    const factory = new IDBFactory();
    const old = await openV1(factory, 'queued'); // an old page that ignores versionchange
    await writeV1(old, v1Sample());
    const first = await openTrustStore({ name: 'queued', indexedDB: factory, blockedTimeoutMs: 50 }).catch((e: unknown) => e);
    expect((first as StoreError).code).toBe('blocked');

    const started = Date.now();
    const second = await openTrustStore({ name: 'queued', indexedDB: factory, blockedTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(StoreError);
    expect((second as StoreError).code).toBe('blocked');
    expect(Date.now() - started).toBeLessThan(2000);

    old.close();
    const store = await openTrustStore({ name: 'queued', indexedDB: factory, blockedTimeoutMs: 1000 });
    expect((await store.getPin(V1_ORIGIN))?.origin).toBe(V1_ORIGIN);
    store.close();
  });
});
