// The probe's view of the trust store: one read of the origin's records, buffered writes
// flushed in one batch each, direct reads for what the snapshot does not hold, and a
// record-by-record mode for a store without the batch methods.
import { describe, expect, it } from 'vitest';
import { openSession } from '../../../lib/engine/session';
import type { TrustStore } from '../../../lib/trust/store-api';
import type { StoredSkill } from '../../../lib/trust/records';
import { approvalFor, freshStore, keyPair, makeCacheEntry, makeSkill } from '../trust/helpers';

const ORIGIN = 'https://site.example';
const url = (n: string): string => `${ORIGIN}/skills/${n}/SKILL.md`;
const K = keyPair(9);

/** `store` counting every call by method name; `hide` removes methods (a store without them). */
function watched(store: TrustStore, hide: string[] = []): { store: TrustStore; calls: Map<string, number>; args: Map<string, unknown[][]> } {
  const calls = new Map<string, number>();
  const args = new Map<string, unknown[][]>();
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (hide.includes(String(prop))) return undefined;
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...a: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        args.set(String(prop), [...(args.get(String(prop)) ?? []), a]);
        return (value as (...x: unknown[]) => unknown).apply(target, a);
      };
    },
  });
  return { store: proxy, calls, args };
}

async function seeded(): Promise<{ store: TrustStore; a1: StoredSkill; a2: StoredSkill }> {
  const { store } = await freshStore();
  await store.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 1);
  const a1 = makeSkill(ORIGIN, url('a'), 'a one', 10);
  const a2 = makeSkill(ORIGIN, url('a'), 'a two', 20);
  await store.approve(approvalFor(a1, K.fingerprint), a1);
  await store.putSkill(a2);
  await store.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 1, 100));
  await store.putCache({ ...makeCacheEntry('https://cdn.example/a/SKILL.md', true, 1, 100), origin: ORIGIN });
  return { store, a1, a2 };
}

describe('probe session over a store with the batch methods', () => {
  it('answers reads about the origin from one state read', async () => {
    const { store: inner, a1, a2 } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    expect((await s.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect((await s.getApproval(ORIGIN, url('a')))?.digestLf).toBe(a1.digestLf);
    expect(await s.getApproval(ORIGIN, url('b'))).toBeNull();
    expect((await s.getSkill(ORIGIN, url('a'), a1.digestLf))?.storedAt).toBe(10);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);
    expect(await s.getLatestSkill(ORIGIN, url('b'))).toBeNull();
    expect((await s.getCache(`${ORIGIN}/llms.txt`))?.positive).toBe(true);
    expect(await s.getCache(`${ORIGIN}/nothing`)).toBeNull();
    expect([...w.calls.keys()]).toEqual(['getOriginState']);
  });

  it('reads a cache entry outside the origin (a cross-origin artifact) from the store', async () => {
    const { store: inner } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    expect((await s.getCache('https://cdn.example/a/SKILL.md'))?.positive).toBe(true);
    expect(w.calls.get('getCache')).toBe(1);
  });

  it('readPin and pinIfAbsent go to the store every time', async () => {
    const { store: inner } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    await inner.forgetPin(ORIGIN);
    expect(await s.getPin(ORIGIN)).not.toBeNull();
    expect(await s.readPin(ORIGIN)).toBeNull();
    expect((await s.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 5)).result).toBe('pinned');
    expect(w.calls.get('getPin')).toBe(1);
    expect(w.calls.get('pinIfAbsent')).toBe(1);
  });

  it('buffers writes (visible to later reads) and flushes them in one batch each, once', async () => {
    const { store: inner, a2 } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    const b = makeSkill(ORIGIN, url('b'), 'b', 30);
    await s.putSkill(b);
    await s.putSkill({ ...a2, signatureVerified: { fingerprint: K.fingerprint, signature: 'c2ln' } });
    const entry = { ...makeCacheEntry(url('b'), true, 30, 300), kind: 'skill-md' as const, bytes: null };
    await s.putCache(entry);
    await s.putCache({ ...entry, storedAt: 31 });
    expect((await s.getSkill(ORIGIN, url('b'), b.digestLf))?.storedAt).toBe(30);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.signatureVerified?.signature).toBe('c2ln');
    expect((await s.getCache(url('b')))?.storedAt).toBe(31);
    expect(await inner.getSkill(ORIGIN, url('b'), b.digestLf)).toBeNull();

    await s.flush();
    expect(w.calls.get('putSkills')).toBe(1);
    expect(w.calls.get('putCacheEntries')).toBe(1);
    expect((w.args.get('putSkills')?.[0]?.[0] as StoredSkill[] | undefined)?.length).toBe(2);
    expect((await inner.getCache(url('b')))?.storedAt).toBe(31);
    expect((await inner.getSkill(ORIGIN, url('a'), a2.digestLf))?.signatureVerified?.signature).toBe('c2ln');
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);

    await s.flush();
    expect(w.calls.get('putSkills')).toBe(1);
    expect(w.calls.get('putCacheEntries')).toBe(1);
  });

  it('rewriting an older record (same storedAt) does not make it the latest', async () => {
    const { store: inner, a1, a2 } = await seeded();
    const s = await openSession(inner, ORIGIN);
    await s.putSkill({ ...a1, signatureVerified: { fingerprint: K.fingerprint, signature: 'x' } });
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);
    await s.putSkill({ ...a2, signatureVerified: { fingerprint: K.fingerprint, signature: 'y' } });
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.signatureVerified?.signature).toBe('y');
  });

  it('a failing state read fails the open', async () => {
    const { store: inner } = await seeded();
    const broken = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'getOriginState') return () => Promise.reject(new Error('unreadable'));
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    await expect(openSession(broken, ORIGIN)).rejects.toThrow('unreadable');
  });
});

describe('probe session over a store without the batch methods', () => {
  it('reads and writes record by record', async () => {
    const { store: inner, a2 } = await seeded();
    const w = watched(inner, ['getOriginState', 'putSkills', 'putCacheEntries']);
    const s = await openSession(w.store, ORIGIN);
    expect((await s.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);
    expect((await s.getCache(`${ORIGIN}/llms.txt`))?.positive).toBe(true);
    expect(w.calls.get('getPin')).toBe(1);
    expect(w.calls.get('getLatestSkill')).toBe(1);
    expect(w.calls.get('getCache')).toBe(1);

    const b = makeSkill(ORIGIN, url('a'), 'a three', 40);
    await s.putSkill(b);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(b.digestLf);
    await s.putCache(makeCacheEntry(`${ORIGIN}/x`, false, 40, 400));
    await s.flush();
    expect(w.calls.get('putSkill')).toBe(1);
    expect(w.calls.get('putCache')).toBe(1);
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(b.digestLf);
  });
});
