// A probe's records: one read of the origin's records, its writes (and the pin step) kept and
// committed with the report in one transaction, direct reads for what the snapshot does not hold.
import { describe, expect, it } from 'vitest';
import { COMMIT_OPS, commitProbe } from '../../../lib/probe/commit';
import { storageNotes } from '../../../lib/probe/storage-guard';
import { probe } from '../../../lib/probe/probe-origin';
import { probeView, type ViewOptions } from '../../../lib/probe/view';
import { DEFAULT_SETTINGS } from '../../../lib/types';
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

/** The probe view of ORIGIN over `store`, as a probe opens it. */
async function openView(store: TrustStore, opts: ViewOptions = {}) {
  return probeView(ORIGIN, await store.getOriginState(ORIGIN), store, opts);
}

/** commitProbe of the view's writes with a report; the notes of what was not written. */
async function commit(store: TrustStore, writes: ReturnType<Awaited<ReturnType<typeof openView>>['writes']>, firstPinTold = true) {
  const notes = storageNotes();
  const out = await commitProbe(store, ORIGIN, writes, makeReport(ORIGIN, 5), notes, firstPinTold);
  return { out, noted: notes.diagnostics().map((d) => d.message) };
}

/** `store` with one method replaced (`impl` sees the real store). */
function replacing<K extends keyof TrustStore>(store: TrustStore, name: K, impl: (target: TrustStore) => TrustStore[K] | undefined): TrustStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const replaced = prop === name ? impl(target) : undefined;
      if (replaced !== undefined) return replaced;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
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

describe('probe view', () => {
  it('answers reads about the origin from one state read', async () => {
    const { store: inner, a1, a2 } = await seeded();
    const w = watched(inner);
    const s = await openView(w.store);
    expect(s.pin()?.fingerprint).toBe(K.fingerprint);
    expect(s.getApproval(url('a'))?.digestLf).toBe(a1.digestLf);
    expect(s.getApproval(url('b'))).toBeNull();
    expect(s.getSkill(url('a'), a1.digestLf)?.storedAt).toBe(10);
    expect(s.getLatestSkill(url('a'))?.digestLf).toBe(a2.digestLf);
    expect(s.getLatestSkill(url('b'))).toBeNull();
    expect((await s.getCache(`${ORIGIN}/llms.txt`))?.positive).toBe(true);
    expect(await s.getCache(`${ORIGIN}/nothing`)).toBeNull();
    expect([...w.calls.keys()]).toEqual(['getOriginState']);
  });

  it('reads a cache entry outside the origin (a cross-origin artifact) from the store', async () => {
    const { store: inner } = await seeded();
    const w = watched(inner);
    const s = await openView(w.store);
    expect((await s.getCache('https://cdn.example/a/SKILL.md'))?.positive).toBe(true);
    expect(w.calls.get('getCache')).toBe(1);
  });

  it('storedPin goes to the store; pinIfAbsent is decided from the state read and written by the commit', async () => {
    const { store: inner } = await seeded();
    const w = watched(inner);
    const s = await openView(w.store);
    await inner.forgetPin(ORIGIN);
    expect(s.pin()).not.toBeNull();
    expect((await s.storedPin()).pin).toBeNull();
    // The state read had the pin: the same key is a match, written (lastSeen) only at the commit.
    const match = s.pinIfAbsent(K.key, K.fingerprint, 5);
    expect(match.result).toBe('match');
    expect(w.calls.get('pinIfAbsent')).toBeUndefined();
    expect(s.writes().pin).toMatchObject({ fingerprint: K.fingerprint, expect: 'match' });
    // The pin was forgotten meanwhile: the commit's compare-and-set pins it, and says it was not what the probe read.
    expect((await commit(w.store, s.writes())).out).toBe('pin-changed');
    expect((await inner.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect(await inner.getReport(ORIGIN)).toBeNull();
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('getPin')).toBe(1);
  });

  it('storedPin names the revoked fingerprints as stored now', async () => {
    const { store: inner } = await seeded();
    const s = await openView(inner);
    await inner.revokeKey(ORIGIN, K.fingerprint, 3);
    expect((await s.storedPin()).revoked).toEqual([K.fingerprint]);
  });

  it('a first sight is predicted as pinned and a revoked key as revoked, without a store call', async () => {
    const { store } = await freshStore();
    await store.revokeKey(ORIGIN, K.fingerprint, 1);
    const w = watched(store);
    const s = await openView(w.store);
    expect(s.pinIfAbsent(K.key, K.fingerprint, 5).result).toBe('revoked');
    expect(s.writes().pin).toBeNull();
    const other = keyPair(10);
    const first = s.pinIfAbsent(other.key, other.fingerprint, 6);
    expect(first).toMatchObject({ result: 'pinned', pin: { fingerprint: other.fingerprint, firstSeen: 6 } });
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect((await commit(w.store, s.writes())).out).toBe('written');
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(other.fingerprint);
    expect(w.calls.get('pinIfAbsent')).toBeUndefined();
  });

  it("a pin that cannot be written is refused by pinIfAbsent with the commit's error", () => {
    const failure = new Error('quota');
    const s = probeView(
      ORIGIN,
      { pin: null, approvals: [], skills: [], cache: [], keys: [] },
      { getCache: async () => null, getPin: async () => null, getKeyHistory: async () => [] },
      { pinUnwritable: failure },
    );
    expect(() => s.pinIfAbsent(K.key, K.fingerprint, 5)).toThrow(failure);
    expect(s.writes().pin).toBeNull();
  });

  it('keeps writes (visible to later reads) and commits them in one transaction', async () => {
    const { store: inner, a2 } = await seeded();
    const w = watched(inner);
    const s = await openView(w.store);
    const b = makeSkill(ORIGIN, url('b'), 'b', 30);
    s.putSkill(b);
    s.putSkill({ ...a2, signatureVerified: { fingerprint: K.fingerprint, signature: 'c2ln' } });
    const entry = { ...makeCacheEntry(url('b'), true, 30, 300), kind: 'skill-md' as const, bytes: null };
    s.putCache(entry);
    s.putCache({ ...entry, storedAt: 31 });
    expect(s.getSkill(url('b'), b.digestLf)?.storedAt).toBe(30);
    expect(s.getLatestSkill(url('a'))?.signatureVerified?.signature).toBe('c2ln');
    expect((await s.getCache(url('b')))?.storedAt).toBe(31);
    expect(await inner.getSkill(ORIGIN, url('b'), b.digestLf)).toBeNull();

    expect((await commit(w.store, s.writes())).out).toBe('written');
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('putSkills')).toBeUndefined();
    expect(w.calls.get('putCacheEntries')).toBeUndefined();
    expect((w.args.get('commitProbe')?.[0]?.[0] as { skills: StoredSkill[] } | undefined)?.skills.length).toBe(2);
    expect((await inner.getCache(url('b')))?.storedAt).toBe(31);
    expect((await inner.getSkill(ORIGIN, url('a'), a2.digestLf))?.signatureVerified?.signature).toBe('c2ln');
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(a2.digestLf);
  });

  it('a seed is read as if written by the view, and written again with its writes', async () => {
    const { store: inner } = await seeded();
    const b = makeSkill(ORIGIN, url('b'), 'b', 30);
    const seed = { skills: [b], cache: [makeCacheEntry(`${ORIGIN}/x`, false, 30, 300)], pin: null };
    const s = await openView(inner, { seed });
    expect(s.getLatestSkill(url('b'))?.digestLf).toBe(b.digestLf);
    expect((await s.getCache(`${ORIGIN}/x`))?.positive).toBe(false);
    expect(s.writes()).toMatchObject({ skills: [{ url: url('b') }], cache: [{ url: `${ORIGIN}/x` }], pin: null });
  });

  it('stores no skill of another origin', async () => {
    const { store: inner } = await seeded();
    const s = await openView(inner);
    expect(() => s.putSkill(makeSkill('https://other.example', 'https://other.example/a/SKILL.md', 'x', 1))).toThrow('stores no skill of https://other.example');
    expect(s.writes().skills).toEqual([]);
  });

  it('rewriting an older record (same storedAt) does not make it the latest', async () => {
    const { store: inner, a1, a2 } = await seeded();
    const s = await openView(inner);
    s.putSkill({ ...a1, signatureVerified: { fingerprint: K.fingerprint, signature: 'x' } });
    expect(s.getLatestSkill(url('a'))?.digestLf).toBe(a2.digestLf);
    s.putSkill({ ...a2, signatureVerified: { fingerprint: K.fingerprint, signature: 'y' } });
    expect(s.getLatestSkill(url('a'))?.signatureVerified?.signature).toBe('y');
  });
});

describe('probe commit', () => {
  it('a record kept after the state read is the latest, and is written with the cache entry by the one commit', async () => {
    const { store: inner, a2 } = await seeded();
    const w = watched(inner);
    const s = await openView(w.store);
    expect(s.getLatestSkill(url('a'))?.digestLf).toBe(a2.digestLf);
    const b = makeSkill(ORIGIN, url('a'), 'a three', 40);
    s.putSkill(b);
    expect(s.getLatestSkill(url('a'))?.digestLf).toBe(b.digestLf);
    s.putCache(makeCacheEntry(`${ORIGIN}/x`, false, 40, 400));
    expect((await commit(w.store, s.writes())).out).toBe('written');
    expect(w.calls.get('commitProbe')).toBe(1);
    expect(w.calls.get('putSkill')).toBeUndefined();
    expect(w.calls.get('putCache')).toBeUndefined();
    expect((await inner.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(b.digestLf);
    expect((await inner.getCache(`${ORIGIN}/x`))?.positive).toBe(false);
    expect((await inner.getReport(ORIGIN))?.finishedAt).toBe(5);
  });

  it('a refused commit is tried again without the bulk writes, names each write lost, and a first pin not written is told', async () => {
    const { store: inner } = await freshStore();
    const quota = new StoreError('quota-exceeded', 'storage quota exceeded');
    let refuse = true;
    const refusing = watched(replacing(inner, 'commitProbe', () => (refuse ? () => Promise.reject(quota) : undefined)));
    const s = await openView(refusing.store);
    expect(s.pinIfAbsent(K.key, K.fingerprint, 5).result).toBe('pinned');
    s.putSkill(makeSkill(ORIGIN, url('b'), 'b', 5));
    s.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 5, 100));
    const told = await commit(refusing.store, s.writes());
    expect(told.out).toEqual({ firstPin: quota });
    expect(refusing.calls.get('commitProbe')).toBe(2);
    expect(told.noted.join('\n')).toContain(COMMIT_OPS.cache);
    expect(told.noted.join('\n')).toContain(COMMIT_OPS.skills);
    expect(told.noted.join('\n')).not.toContain(COMMIT_OPS.report);
    expect(await inner.getPin(ORIGIN)).toBeNull();
    expect(await inner.getReport(ORIGIN)).toBeNull();
    // Not told (a probe that ended in an error): the lost writes are noted instead.
    const noted = await commit(refusing.store, s.writes(), false);
    expect(noted.out).toBe('refused');
    expect(noted.noted.join('\n')).toContain(COMMIT_OPS.report);
    refuse = false;
    expect((await commit(refusing.store, s.writes())).out).toBe('written');
    expect((await inner.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect(await inner.getSkill(ORIGIN, url('b'), makeSkill(ORIGIN, url('b'), 'b', 5).digestLf)).not.toBeNull();
  });

  it('a refusal by the byte budget leaves out only the new bytes', async () => {
    const { store: inner } = await seeded();
    const overBudget = new StoreError('over-budget', 'over the byte budget');
    const seen: { skills: number; cache: number }[] = [];
    const budgeted = replacing(inner, 'commitProbe', (target) => (c) => {
      seen.push({ skills: c.skills.length, cache: c.cache.length });
      return c.skills.length > 0 ? Promise.reject(overBudget) : target.commitProbe(c);
    });
    const s = await openView(budgeted);
    s.putSkill(makeSkill(ORIGIN, url('c'), 'c', 5));
    s.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 5, 100));
    const { out, noted } = await commit(budgeted, s.writes());
    expect(out).toBe('written');
    expect(seen).toEqual([
      { skills: 1, cache: 1 },
      { skills: 0, cache: 1 },
    ]);
    expect(noted.join('\n')).toContain(COMMIT_OPS.skills);
    expect(noted.join('\n')).not.toContain(COMMIT_OPS.cache);
    expect((await inner.getReport(ORIGIN))?.finishedAt).toBe(5);
  });

  it('a refused lastSeen is a lost pin write, not told as a first pin', async () => {
    const { store: inner } = await seeded();
    const refusing = replacing(inner, 'commitProbe', () => () => Promise.reject(new Error('closed')));
    const s = await openView(refusing);
    expect(s.pinIfAbsent(K.key, K.fingerprint, 5).result).toBe('match');
    const { out, noted } = await commit(refusing, s.writes());
    expect(out).toBe('refused');
    expect(noted.join('\n')).toContain(COMMIT_OPS.pin);
  });
});

describe('probe of an unreadable store', () => {
  it('a failing state read is an error report with no writes, and nothing is asked of the network', async () => {
    const { store: inner } = await seeded();
    const broken = replacing(inner, 'getOriginState', () => () => Promise.reject(new Error('unreadable')));
    let asked = 0;
    const fetch = async (): Promise<Response> => {
      asked += 1;
      return new Response('', { status: 404 });
    };
    const out = await probe(ORIGIN, { fetch, store: broken, clock: { now: () => 7 }, settings: DEFAULT_SETTINGS }, {}, 7, storageNotes());
    expect(out.failed).toBe(true);
    expect(out.writes).toBeNull();
    expect(out.report.state).toBe('error');
    expect(asked).toBe(0);
  });
});
