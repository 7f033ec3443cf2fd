// The probe's view of the trust store: one read of the origin's records, buffered writes (and the
// pin step) committed in one transaction, direct reads for what the snapshot does not hold.
import { describe, expect, it } from 'vitest';
import { COMMIT_OPS, openSession } from '../../../lib/probe/session';
import { StoreError } from '../../../lib/store/errors';
import type { TrustStore } from '../../../lib/store/store-api';
import type { StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, keyPair, makeCacheEntry, makeReport, makeSkill } from '../store/helpers';

const ORIGIN = 'https://site.example';
const url = (n: string): string => `${ORIGIN}/skills/${n}/SKILL.md`;
const K = keyPair(9);

/** `store` counting every call by method name. */
function watched(store: TrustStore): { store: TrustStore; calls: Map<string, number>; args: Map<string, unknown[][]> } {
  const calls = new Map<string, number>();
  const args = new Map<string, unknown[][]>();
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
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

describe('probe session', () => {
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

  it('readPin goes to the store; pinIfAbsent is decided from the state read and written by the commit', async () => {
    const { store: inner } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    await inner.forgetPin(ORIGIN);
    expect(await s.getPin(ORIGIN)).not.toBeNull();
    expect(await s.readPin(ORIGIN)).toBeNull();
    // The state read had the pin: the same key is a match, written (lastSeen) only at the commit.
    const match = await s.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 5);
    expect(match.result).toBe('match');
    expect(w.calls.get('pinIfAbsent')).toBeUndefined();
    expect(s.pending().pin).toMatchObject({ fingerprint: K.fingerprint, expect: 'match' });
    // The pin was forgotten meanwhile: the commit's compare-and-set pins it, and says it was not what the probe read.
    const out = await s.commit(null);
    expect(out).toEqual({ ok: true, pinAsExpected: false });
    expect((await inner.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('getPin')).toBe(1);
  });

  it('a first sight is predicted as pinned and a revoked key as revoked, without a store call', async () => {
    const { store } = await freshStore();
    await store.revokeKey(ORIGIN, K.fingerprint, 1);
    const w = watched(store);
    const s = await openSession(w.store, ORIGIN);
    expect((await s.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 5)).result).toBe('revoked');
    expect(s.pending().pin).toBeNull();
    const other = keyPair(10);
    const first = await s.pinIfAbsent(ORIGIN, other.key, other.fingerprint, 6);
    expect(first).toMatchObject({ result: 'pinned', pin: { fingerprint: other.fingerprint, firstSeen: 6 } });
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect(await s.commit(null)).toEqual({ ok: true, pinAsExpected: true });
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(other.fingerprint);
    expect(w.calls.get('pinIfAbsent')).toBeUndefined();
  });

  it('buffers writes (visible to later reads) and commits them in one transaction, once', async () => {
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

    await s.commit(null);
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('putSkills')).toBeUndefined();
    expect(w.calls.get('putCacheEntries')).toBeUndefined();
    expect((w.args.get('commitProbe')?.[0]?.[0] as { skills: StoredSkill[] } | undefined)?.skills.length).toBe(2);
    expect((await inner.getCache(url('b')))?.storedAt).toBe(31);
    expect((await inner.getSkill(ORIGIN, url('a'), a2.digestLf))?.signatureVerified?.signature).toBe('c2ln');
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);

    await s.commit(null);
    expect(w.calls.get('commitProbe')).toBe(1);
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

describe('probe session commit', () => {
  it('a record buffered after the state read is the latest, and is written with the cache entry by the one commit', async () => {
    const { store: inner, a2 } = await seeded();
    const w = watched(inner);
    const s = await openSession(w.store, ORIGIN);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);
    const b = makeSkill(ORIGIN, url('a'), 'a three', 40);
    await s.putSkill(b);
    expect((await s.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(b.digestLf);
    await s.putCache(makeCacheEntry(`${ORIGIN}/x`, false, 40, 400));
    expect(await s.commit(null)).toEqual({ ok: true, pinAsExpected: true });
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('putSkill')).toBeUndefined();
    expect(w.calls.get('putCache')).toBeUndefined();
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(b.digestLf);
    expect((await inner.getCache(`${ORIGIN}/x`))?.positive).toBe(false);
  });

  it('a refused commit writes nothing, names each write lost, and keeps the buffers for the next one', async () => {
    const { store: inner } = await freshStore();
    const quota = new StoreError('quota-exceeded', 'storage quota exceeded');
    let refuse = true;
    const refusing = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'commitProbe' && refuse) return () => Promise.reject(quota);
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const s = await openSession(refusing, ORIGIN);
    expect((await s.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 5)).result).toBe('pinned');
    await s.putSkill(makeSkill(ORIGIN, url('b'), 'b', 5));
    await s.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 5, 100));
    const report = makeReport(ORIGIN, 5);
    expect(await s.commit(report)).toEqual({ ok: false, error: quota, firstPin: true, ops: [COMMIT_OPS.cache, COMMIT_OPS.skills, COMMIT_OPS.report] });
    expect(await s.commit(report, { skills: false, cache: false })).toEqual({ ok: false, error: quota, firstPin: true, ops: [COMMIT_OPS.report] });
    expect(await inner.getPin(ORIGIN)).toBeNull();
    expect(await inner.getReport(ORIGIN)).toBeNull();
    expect(s.pending()).toMatchObject({ skills: [{ url: url('b') }], cache: [{ url: `${ORIGIN}/llms.txt` }], pin: { expect: 'pinned' } });
    refuse = false;
    expect(await s.commit(report)).toEqual({ ok: true, pinAsExpected: true });
    expect((await inner.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect(await inner.getSkill(ORIGIN, url('b'), makeSkill(ORIGIN, url('b'), 'b', 5).digestLf)).not.toBeNull();
  });

  it('a refused lastSeen is a lost pin write; a refused first pin is told as one', async () => {
    const { store: inner } = await seeded();
    const refusing = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'commitProbe') return () => Promise.reject(new Error('closed'));
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const s = await openSession(refusing, ORIGIN);
    expect((await s.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 5)).result).toBe('match');
    expect(await s.commit(null)).toMatchObject({ ok: false, firstPin: false, ops: [COMMIT_OPS.pin] });
  });
});
