// One probe's writes in one readwrite transaction (TrustStore.commitProbe, lib/store/idb-commit.ts):
// counted at IDBDatabase.transaction of fake-indexeddb; a failure anywhere in it (a refusal by the
// byte budget, a put the database refuses) writes nothing and keeps everything stored before; a
// pin that is not the one expected keeps the bytes and cache entries but not the report.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../../lib/store/errors';
import type { ProbeCommit, TrustStore } from '../../../lib/store/store-api';
import { freshStore, keyPair, makeCacheEntry, makeReport, makeSkill } from './helpers';

const ORIGIN = 'https://commit.example';
const OTHER = 'https://other.example';
const url = (n: string): string => `${ORIGIN}/skills/${n}/SKILL.md`;
const K = keyPair(3);
const K2 = keyPair(4);

type TransactionFn = (this: IDBDatabase, ...args: unknown[]) => IDBTransaction;
const dbProto = IDBDatabase.prototype as unknown as { transaction: TransactionFn };

/** Counts the readwrite transactions opened on any database from now on. */
function countReadwrite(): { count(): number } {
  const real = dbProto.transaction;
  let n = 0;
  vi.spyOn(dbProto, 'transaction').mockImplementation(function (this: IDBDatabase, ...args: unknown[]) {
    if (args[1] === 'readwrite') n += 1;
    return real.apply(this, args);
  });
  return { count: () => n };
}

afterEach(() => {
  vi.restoreAllMocks();
});

function probeCommit(over: Partial<ProbeCommit> = {}): ProbeCommit {
  return {
    origin: ORIGIN,
    pin: { key: K.key, fingerprint: K.fingerprint, now: 50, expect: 'pinned' },
    skills: [makeSkill(ORIGIN, url('a'), 'alpha bytes', 50), makeSkill(ORIGIN, url('b'), 'beta bytes', 50)],
    cache: [makeCacheEntry(`${ORIGIN}/llms.txt`, true, 50, 500), makeCacheEntry(url('a'), true, 50, 500)],
    report: makeReport(ORIGIN, 50),
    ...over,
  };
}

/** What another origin has stored, to show a failed commit leaves it alone. */
async function seedOther(store: TrustStore): Promise<void> {
  await store.pinIfAbsent(OTHER, K2.key, K2.fingerprint, 1);
  await store.putSkill(makeSkill(OTHER, `${OTHER}/s/SKILL.md`, 'ob', 1));
  await store.putCache(makeCacheEntry(`${OTHER}/llms.txt`, true, 1, 100));
  await store.putReport(makeReport(OTHER, 1));
}

async function expectOtherKept(store: TrustStore): Promise<void> {
  expect((await store.getPin(OTHER))?.fingerprint).toBe(K2.fingerprint);
  expect(await store.getLatestSkill(OTHER, `${OTHER}/s/SKILL.md`)).not.toBeNull();
  expect(await store.getCache(`${OTHER}/llms.txt`)).not.toBeNull();
  expect((await store.getReport(OTHER))?.finishedAt).toBe(1);
}

async function expectNothingOf(store: TrustStore): Promise<void> {
  expect(await store.getPin(ORIGIN)).toBeNull();
  expect(await store.getKeyHistory(ORIGIN)).toEqual([]);
  expect(await store.getLatestSkill(ORIGIN, url('a'))).toBeNull();
  expect(await store.getLatestSkill(ORIGIN, url('b'))).toBeNull();
  expect(await store.getCache(`${ORIGIN}/llms.txt`)).toBeNull();
  expect(await store.getReport(ORIGIN)).toBeNull();
}

describe('commitProbe', () => {
  it('writes the pin, the bytes, the cache entries and the report in one readwrite transaction', async () => {
    const { store } = await freshStore();
    const tx = countReadwrite();
    const out = await store.commitProbe(probeCommit());
    expect(tx.count()).toBe(1);
    expect(out).toMatchObject({ pin: { result: 'pinned' }, reportWritten: true });
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect((await store.getKeyHistory(ORIGIN)).map((e) => e.state)).toEqual(['pinned']);
    expect(await store.getLatestSkill(ORIGIN, url('a'))).not.toBeNull();
    expect(await store.getLatestSkill(ORIGIN, url('b'))).not.toBeNull();
    expect(await store.getCache(url('a'))).not.toBeNull();
    expect((await store.getReport(ORIGIN))?.finishedAt).toBe(50);
  });

  it('a refusal by the byte budget, after the pin step ran, writes nothing and keeps what was stored', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 5 });
    await seedOther(store);
    const tx = countReadwrite();
    await expect(store.commitProbe(probeCommit())).rejects.toMatchObject({ code: 'over-budget' });
    expect(tx.count()).toBe(1);
    await expectNothingOf(store);
    await expectOtherKept(store);
  });

  it('a put the database refuses (the report, written last) writes nothing of the commit', async () => {
    const { store } = await freshStore();
    await seedOther(store);
    const storeProto = IDBObjectStore.prototype as unknown as { put: (this: IDBObjectStore, ...a: unknown[]) => IDBRequest };
    const realPut = storeProto.put;
    vi.spyOn(storeProto, 'put').mockImplementation(function (this: IDBObjectStore, ...a: unknown[]) {
      if (this.name === 'reports') throw new DOMException('quota', 'QuotaExceededError');
      return realPut.apply(this, a);
    });
    await expect(store.commitProbe(probeCommit())).rejects.toBeInstanceOf(StoreError);
    vi.restoreAllMocks();
    await expectNothingOf(store);
    await expectOtherKept(store);
  });

  it('a malformed record writes nothing, without opening a transaction', async () => {
    const { store } = await freshStore();
    const tx = countReadwrite();
    const bad = { ...makeSkill(ORIGIN, url('a'), 'x', 50), digestLf: 'not hex' };
    await expect(store.commitProbe(probeCommit({ skills: [bad] }))).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.commitProbe(probeCommit({ report: makeReport(OTHER, 50) }))).rejects.toMatchObject({ code: 'invalid-input' });
    expect(tx.count()).toBe(0);
    await expectNothingOf(store);
  });

  it('a pin written meanwhile: the pin is kept, the bytes and cache entries are written, the report is not', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, K2.key, K2.fingerprint, 10);
    const out = await store.commitProbe(probeCommit());
    expect(out).toMatchObject({ pin: { result: 'mismatch', pin: { fingerprint: K2.fingerprint } }, reportWritten: false });
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(K2.fingerprint);
    // The offered key is in the history, as pinIfAbsent keeps it.
    expect((await store.getKeyHistory(ORIGIN)).find((e) => e.fingerprint === K.fingerprint)?.state).toBe('offered');
    expect(await store.getLatestSkill(ORIGIN, url('a'))).not.toBeNull();
    expect(await store.getCache(url('a'))).not.toBeNull();
    expect(await store.getReport(ORIGIN)).toBeNull();
  });

  it('a revoked key is never pinned by a commit', async () => {
    const { store } = await freshStore();
    await store.revokeKey(ORIGIN, K.fingerprint, 5);
    const out = await store.commitProbe(probeCommit());
    expect(out).toMatchObject({ pin: { result: 'revoked', pin: null }, reportWritten: false });
    expect(await store.getPin(ORIGIN)).toBeNull();
  });
});
