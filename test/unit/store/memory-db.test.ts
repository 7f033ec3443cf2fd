// The trust database in memory (lib/store/memory-db.ts), the private windows' backend: it must be
// the IndexedDB the store's parts are written over. Its object stores and indexes are the ones the
// schema makes on disk; its keys sort as IndexedDB sorts them; a transaction is all or nothing and
// runs alone; and the whole store over it answers every call as the store over IndexedDB does.
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openMemoryTrustStore, openTrustStore } from '../../../lib/store/idb-store';
import { compareKeys, openMemoryDatabase } from '../../../lib/store/memory-db';
import { openDatabase } from '../../../lib/store/open';
import type { TrustStore } from '../../../lib/store/store-api';
import { approvalFor, keyPair, makeCacheEntry, makeReport, makeSkill } from './helpers';

type Shape = Record<string, { keyPath: unknown; indexes: Record<string, unknown> }>;

/** The object stores of a database: key paths and index key paths. */
async function shapeOf(
  db: { transaction(n: string, m: 'readonly'): { objectStore(n: string): { keyPath: unknown; indexNames: ArrayLike<string>; index(n: string): { keyPath: unknown } } } },
  names: string[],
): Promise<Shape> {
  const out: Shape = {};
  for (const name of names) {
    const store = db.transaction(name, 'readonly').objectStore(name);
    const indexes: Record<string, unknown> = {};
    for (const i of Array.from(store.indexNames)) indexes[i] = store.index(i).keyPath;
    out[name] = { keyPath: store.keyPath ?? null, indexes };
  }
  return out;
}

describe('the trust database in memory', () => {
  it('has the object stores and indexes the schema makes on disk, and the first records', async () => {
    const disk = await openDatabase({ factory: new IDBFactory(), name: 'shape', blockedTimeoutMs: 1000 });
    const names = Array.from(disk.objectStoreNames).sort();
    const expected = await shapeOf(disk as never, names);
    const mem = (await openMemoryDatabase()) as unknown as { tables: Map<string, { keyPath: unknown; indexes: Map<string, unknown> }> };
    const actual: Shape = {};
    for (const [name, t] of [...mem.tables].sort(([a], [b]) => (a < b ? -1 : 1))) actual[name] = { keyPath: t.keyPath, indexes: Object.fromEntries(t.indexes) };
    expect(actual).toEqual(JSON.parse(JSON.stringify(expected)));
    const disked = await disk.getAll('totals');
    const memDb = (await openMemoryDatabase()) as unknown as typeof disk;
    expect(await memDb.transaction('totals', 'readonly').objectStore('totals').getAll()).toEqual(disked);
    disk.close();
  });

  it('orders keys as IndexedDB does', () => {
    const keys = [3, -Infinity, Infinity, 0, -1.5, '', 'a', 'B', 'ab', 'é', [], ['a'], ['a', 1], ['a', 'b'], [1], [[1]], ['https://x', -Infinity], ['https://x', 5]];
    const cmp = new IDBFactory();
    for (const a of keys) for (const b of keys) expect(Math.sign(compareKeys(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(cmp.cmp(a, b));
  });

  it('undoes every write of a transaction that aborts, and runs transactions one at a time', async () => {
    const db = await openMemoryDatabase();
    const first = db.transaction(['pins'], 'readwrite');
    const second = db.transaction(['pins'], 'readonly');
    const seen = second.objectStore('pins').get('https://a.example');
    await first.objectStore('pins').put({ origin: 'https://a.example', n: 1 } as never);
    first.abort();
    await expect(first.done).rejects.toMatchObject({ name: 'AbortError' });
    // The second transaction started after the first had ended: it sees nothing of it.
    expect(await seen).toBeUndefined();
    const third = db.transaction(['pins'], 'readwrite');
    await third.objectStore('pins').put({ origin: 'https://a.example', n: 2 } as never);
    await expect(third.objectStore('pins').put({ n: 3 } as never)).rejects.toMatchObject({ name: 'DataError' });
    // A request that fails aborts its transaction, with every write it made.
    await expect(third.done).rejects.toMatchObject({ name: 'DataError' });
    expect(await db.transaction(['pins'], 'readonly').objectStore('pins').getAll()).toEqual([]);
  });

  it('leaves a record out of an index whose key it does not have, as IndexedDB does', async () => {
    const disk = await openDatabase({ factory: new IDBFactory(), name: 'index-keys', blockedTimeoutMs: 1000 });
    const mem = await openMemoryDatabase();
    const counts = async (db: typeof disk): Promise<number[]> => {
      const tx = db.transaction(['skills'], 'readwrite');
      const skills = tx.objectStore('skills');
      // No size: the size indexes (what the byte budgets walk) do not hold it; a size that is no key (true), neither.
      await skills.put({ origin: 'https://a.example', url: 'https://a.example/s', digestLf: 'd', filesKey: '', storedAt: 1 } as never);
      await skills.put({ origin: 'https://a.example', url: 'https://a.example/t', digestLf: 'd', filesKey: '', storedAt: 2, size: true } as never);
      await skills.put({ origin: 'https://a.example', url: 'https://a.example/u', digestLf: 'd', filesKey: '', storedAt: 3, size: 5 } as never);
      const out = [await skills.count(), await skills.index('by-storedAt-size').count(), await skills.index('by-origin-storedAt').count()];
      await tx.done;
      return out;
    };
    expect(await counts(mem)).toEqual(await counts(disk));
    expect(await counts(mem)).toEqual([3, 1, 3]);
    disk.close();
  });

  it('refuses a write in a read-only transaction and a store outside its scope, as IndexedDB does', async () => {
    const disk = await openDatabase({ factory: new IDBFactory(), name: 'scope', blockedTimeoutMs: 1000 });
    const mem = await openMemoryDatabase();
    for (const db of [disk, mem]) {
      const tx = db.transaction(['pins'], 'readonly');
      expect(() => tx.objectStore('keys' as never)).toThrow(expect.objectContaining({ name: 'NotFoundError' }));
      const pins = tx.objectStore('pins') as unknown as { put(v: unknown): Promise<unknown> };
      expect(() => pins.put({ origin: 'https://a.example' })).toThrow(expect.objectContaining({ name: 'ReadOnlyError' }));
      await tx.done.catch(() => undefined);
      expect(await db.transaction(['pins'], 'readonly').objectStore('pins').getAll()).toEqual([]);
    }
    disk.close();
  });

  it('hands out copies: a record changed after put or get is not the stored one', async () => {
    const db = await openMemoryDatabase();
    const rec = { origin: 'https://a.example', list: [1] };
    const tx = db.transaction(['pins'], 'readwrite');
    await tx.objectStore('pins').put(rec as never);
    rec.list.push(2);
    const read = (await tx.objectStore('pins').get('https://a.example')) as unknown as typeof rec;
    read.list.push(3);
    expect(await tx.objectStore('pins').get('https://a.example')).toEqual({ origin: 'https://a.example', list: [1] });
  });

  it('a store over it answers a long run of calls exactly as the store over IndexedDB', async () => {
    const limits = { maxReports: 5, maxCacheEntries: 6, maxSkillsPerOrigin: 4, maxSkillBytes: 100, maxSkillBytesPerOrigin: 40 };
    const disk = await openTrustStore({ name: 'twin', indexedDB: new IDBFactory(), ...limits });
    const { store: mem } = await openMemoryTrustStore(limits);
    const run = (s: TrustStore) => script(s);
    const [a, b] = [await run(disk), await run(mem)];
    expect(b).toEqual(a);
    // The run reached the bounds and the refusals it was written for.
    expect(a.filter((x) => x === 'over-budget').length).toBeGreaterThan(0);
    expect(a.filter((x) => x === 'key-revoked').length).toBeGreaterThan(0);
  });
});

/** A seeded random run over three origins; every answer and every error code, then every list. */
async function script(s: TrustStore): Promise<unknown[]> {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    // The high bits: the low bits of this generator repeat with short periods.
    return Math.floor((seed / 2147483648) * n);
  };
  const origins = ['https://a.example', 'https://b.example', 'http://c.example:8080'];
  const keys = [keyPair(1), keyPair(2), keyPair(3)];
  const out: unknown[] = [];
  const call = async (f: () => Promise<unknown>): Promise<void> => {
    try {
      out.push(await f());
    } catch (e) {
      out.push((e as { code?: string }).code ?? String(e));
    }
  };
  for (let t = 1; t <= 400; t++) {
    const origin = origins[rnd(3)] as string;
    const k = keys[rnd(3)] as (typeof keys)[number];
    const url = `${origin}/skills/${rnd(4)}/SKILL.md`;
    const skill = makeSkill(origin, url, `body ${rnd(6)} `.repeat(1 + rnd(4)), t);
    switch (rnd(12)) {
      case 0:
        await call(() => s.pinIfAbsent(origin, k.key, k.fingerprint, t));
        break;
      case 1:
        await call(async () => s.replacePin(origin, (await s.getPin(origin))?.fingerprint ?? null, k.key, k.fingerprint, t, [{ url, digestLf: skill.digestLf }]));
        break;
      case 2:
        await call(() => (rnd(4) === 0 ? s.revokeKey(origin, k.fingerprint, t) : s.forgetPin(origin)));
        break;
      case 3:
        await call(async () => s.approve(approvalFor(skill, (await s.getPin(origin))?.fingerprint ?? null, t), skill));
        break;
      case 4:
        await call(() => s.revoke(origin, url));
        break;
      case 5:
      case 6:
        await call(() => (rnd(2) === 0 ? s.putSkill(skill) : s.putSkills([skill, makeSkill(origin, `${origin}/skills/x/SKILL.md`, 'x'.repeat(rnd(40)), t)])));
        break;
      case 7:
        await call(() => s.putCacheEntries([makeCacheEntry(url, rnd(2) === 0, t, t + rnd(50))]));
        break;
      case 8:
        await call(() => s.putReport(makeReport(origin, t)));
        break;
      case 9:
        await call(() =>
          s.commitProbe({
            origin,
            pin: { key: k.key, fingerprint: k.fingerprint, now: t, expect: 'match' },
            skills: [skill],
            cache: [makeCacheEntry(`${origin}/llms.txt`, true, t, t + 9)],
            report: makeReport(origin, t),
          }),
        );
        break;
      case 10:
        await call(() => s.getOriginState(origin));
        break;
      default:
        await call(async () => [await s.getLatestSkill(origin, url), await s.getApprovals(origin), await s.getKeyHistory(origin), await s.pinsPage(rnd(3), 2)]);
    }
  }
  out.push(await s.listPins(), await s.listKeyHistory(), await s.listApprovals(), await s.listReports());
  for (const o of origins) out.push(await s.getOriginState(o));
  return out;
}
