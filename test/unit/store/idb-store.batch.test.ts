// One probe's reads and writes in few transactions: getOriginState, putSkills, putCacheEntries,
// and the signature verification note kept with stored bytes.
import { describe, expect, it } from 'vitest';
import type { ProbeCacheEntry, StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, keyPair, makeCacheEntry, makeSkill, plant, rawAll } from './helpers';

const ORIGIN = 'https://docs.example.com';
const OTHER = 'https://docs.example.com.evil.example';
const url = (n: string, origin = ORIGIN): string => `${origin}/skills/${n}/SKILL.md`;
const K = keyPair(3);

describe('getOriginState', () => {
  it('returns the pin, approvals, skill records and cache entries of the origin only', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 1);
    await store.pinIfAbsent(OTHER, keyPair(4).key, keyPair(4).fingerprint, 1);
    const a1 = makeSkill(ORIGIN, url('a'), 'a one', 10);
    const a2 = makeSkill(ORIGIN, url('a'), 'a two', 20);
    const b = makeSkill(ORIGIN, url('b'), 'b', 15);
    await store.approve(approvalFor(a1, K.fingerprint), a1);
    await store.putSkill(a2);
    await store.putSkill(b);
    await store.putSkill(makeSkill(OTHER, url('a', OTHER), 'other', 10));
    await store.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 1, 100));
    // Written by another origin's probe, but under this origin's URL: a cache entry is keyed by URL.
    await store.putCache({ ...makeCacheEntry(url('b'), true, 1, 100), origin: 'https://lister.example', kind: 'skill-md', bytes: null });
    await store.putCache(makeCacheEntry(`${OTHER}/llms.txt`, true, 1, 100));
    await store.putCache(makeCacheEntry(`${ORIGIN}:8443/llms.txt`, true, 1, 100));

    const state = await store.getOriginState(ORIGIN);
    expect(state?.pin?.fingerprint).toBe(K.fingerprint);
    expect(state?.approvals.map((a) => a.url)).toEqual([url('a')]);
    expect(state?.skills.map((s) => s.digestLf).sort()).toEqual([a1.digestLf, a2.digestLf, b.digestLf].sort());
    expect(state?.cache.map((e) => e.url).sort()).toEqual([`${ORIGIN}/llms.txt`, url('b')].sort());
  });

  it('an origin with nothing stored: empty state, no pin', async () => {
    const { store } = await freshStore();
    expect(await store.getOriginState('https://new.example')).toEqual({ pin: null, approvals: [], skills: [], cache: [], keys: [] });
  });

  it('skips unreadable records and reports them, keeping them stored', async () => {
    const { store, factory, name, errors } = await freshStore();
    const good = makeSkill(ORIGIN, url('a'), 'a', 10);
    await store.putSkill(good);
    await plant(factory, name, 'skills', { origin: ORIGIN, url: url('b'), digestLf: 'x', digestRaw: 'y', bytes: 'nope', storedAt: 11, filesKey: '' });
    await plant(factory, name, 'pins', { origin: ORIGIN, key: 7 });
    await plant(factory, name, 'cache', { url: `${ORIGIN}/llms.txt`, origin: ORIGIN, positive: 'yes', evictKey: [1, 0] });
    const state = await store.getOriginState(ORIGIN);
    expect(state?.pin).toBeNull();
    expect(state?.skills.map((s) => s.digestLf)).toEqual([good.digestLf]);
    expect(state?.cache).toEqual([]);
    expect(
      errors
        .filter((e) => e.code === 'corrupt-record')
        .map((e) => e.store)
        .sort(),
    ).toEqual(['cache', 'pins', 'skills']);
    expect(await rawAll(factory, name, 'skills')).toHaveLength(2);
  });
});

describe('putSkills', () => {
  it('writes every record, pruning as putSkill does (latest, bound and just written kept)', async () => {
    const { store } = await freshStore();
    const old = makeSkill(ORIGIN, url('a'), 'a old', 10);
    await store.approve(approvalFor(old, null), old);
    const mid = makeSkill(ORIGIN, url('a'), 'a mid', 20);
    await store.putSkill(mid);
    const next = makeSkill(ORIGIN, url('a'), 'a new', 30);
    const b = makeSkill(ORIGIN, url('b'), 'b', 30);
    await store.putSkills([next, b]);
    const state = await store.getOriginState(ORIGIN);
    expect(state?.skills.map((s) => s.digestLf).sort()).toEqual([old.digestLf, next.digestLf, b.digestLf].sort());
    expect((await store.getLatestSkill(ORIGIN, url('a')))?.digestLf).toBe(next.digestLf);
  });

  it('keeps the per-origin bound, oldest unprotected records first, never a record of the batch', async () => {
    const { store } = await freshStore({ maxSkillsPerOrigin: 3 });
    const a = makeSkill(ORIGIN, url('a'), 'a', 10);
    await store.approve(approvalFor(a, null), a);
    await store.putSkill(makeSkill(ORIGIN, url('b'), 'b', 11));
    await store.putSkill(makeSkill(ORIGIN, url('c'), 'c', 12));
    await store.putSkills([makeSkill(ORIGIN, url('d'), 'd', 20), makeSkill(ORIGIN, url('e'), 'e', 21)]);
    const left = (await store.getOriginState(ORIGIN))?.skills.map((s) => s.url).sort();
    expect(left).toEqual([url('a'), url('d'), url('e')]);
    // A batch larger than the bound keeps all of its records.
    await store.putSkills(['f', 'g', 'h', 'i'].map((n, i) => makeSkill(ORIGIN, url(n), n, 30 + i)));
    expect((await store.getOriginState(ORIGIN))?.skills.map((s) => s.url).sort()).toEqual([url('a'), url('f'), url('g'), url('h'), url('i')]);
  });

  it('two records of one URL in a batch: the one written last is kept beside the latest and approved ones', async () => {
    const { store } = await freshStore();
    const old = makeSkill(ORIGIN, url('a'), 'a old', 10);
    const first = makeSkill(ORIGIN, url('a'), 'a first', 20);
    const second = makeSkill(ORIGIN, url('a'), 'a second', 15);
    await store.putSkill(old);
    await store.putSkills([first, second]);
    const left = (await store.getOriginState(ORIGIN))?.skills.map((s) => s.digestLf).sort();
    // `first` is the latest (storedAt 20), `second` was written last; `old` is neither.
    expect(left).toEqual([first.digestLf, second.digestLf].sort());
  });

  it('an unreadable approval of the origin keeps every record of it', async () => {
    const { store, factory, name } = await freshStore();
    await store.putSkill(makeSkill(ORIGIN, url('a'), 'a old', 10));
    await plant(factory, name, 'approvals', { origin: ORIGIN, url: url('z'), digestLf: 'bad' });
    await store.putSkills([makeSkill(ORIGIN, url('a'), 'a new', 20)]);
    expect((await store.getOriginState(ORIGIN))?.skills).toHaveLength(2);
  });

  it('unreadable records of a URL are neither evicted nor taken for its latest bytes', async () => {
    const { store, factory, name } = await freshStore();
    const old = makeSkill(ORIGIN, url('a'), 'a old', 10);
    await store.putSkill(old);
    await plant(factory, name, 'skills', { origin: ORIGIN, url: url('a'), digestLf: 'f'.repeat(64), digestRaw: 'f', bytes: 1, storedAt: 99, filesKey: '' });
    const next = makeSkill(ORIGIN, url('a'), 'a new', 20);
    await store.putSkills([next]);
    const raws = (await rawAll(factory, name, 'skills')) as { digestLf: string }[];
    expect(raws.map((r) => r.digestLf).sort()).toEqual([next.digestLf, 'f'.repeat(64)].sort());
  });

  it('refuses a batch holding one malformed record and writes nothing', async () => {
    const { store } = await freshStore();
    const good = makeSkill(ORIGIN, url('a'), 'a', 10);
    const bad = { ...makeSkill(ORIGIN, url('b'), 'b', 10), digestLf: 'short' } as StoredSkill;
    await expect(store.putSkills([good, bad])).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getSkill(ORIGIN, url('a'), good.digestLf)).toBeNull();
  });

  it('an empty batch writes nothing and resolves', async () => {
    const { store } = await freshStore();
    await expect(store.putSkills([])).resolves.toBeUndefined();
  });
});

describe('putCacheEntries', () => {
  it('writes every entry in order (a later entry for the same URL wins)', async () => {
    const { store } = await freshStore();
    const first = makeCacheEntry(`${ORIGIN}/llms.txt`, true, 1, 100);
    const second = { ...first, storedAt: 2, expiresAt: 200 };
    const index = makeCacheEntry(`${ORIGIN}/.well-known/agent-skills/index.json`, false, 1, 50);
    await store.putCacheEntries([first, index, second]);
    expect(await store.getCache(first.url)).toMatchObject({ storedAt: 2, expiresAt: 200 });
    expect(await store.getCache(index.url)).toMatchObject({ positive: false });
  });

  it('keeps the cache bound, evicting negatives first, never the entry just written', async () => {
    const { store } = await freshStore({ maxCacheEntries: 2 });
    const neg = makeCacheEntry('https://a.example/llms.txt', false, 1, 10);
    await store.putCache(neg);
    const entries: ProbeCacheEntry[] = [makeCacheEntry(`${ORIGIN}/llms.txt`, true, 5, 500), makeCacheEntry(`${ORIGIN}/x`, true, 6, 600)];
    await store.putCacheEntries(entries);
    expect(await store.getCache(neg.url)).toBeNull();
    expect(await store.getCache(`${ORIGIN}/llms.txt`)).not.toBeNull();
    expect(await store.getCache(`${ORIGIN}/x`)).not.toBeNull();
  });

  it('refuses a batch holding one malformed entry and writes nothing', async () => {
    const { store } = await freshStore();
    const good = makeCacheEntry(`${ORIGIN}/llms.txt`, true, 1, 100);
    const bad = { ...good, url: '' };
    await expect(store.putCacheEntries([good, bad])).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getCache(good.url)).toBeNull();
  });
});

describe('signature verification note', () => {
  it('is kept with the bytes through putSkill, putSkills, approve and getOriginState', async () => {
    const { store } = await freshStore();
    const note = { fingerprint: K.fingerprint, signature: 'c2lnbmF0dXJl' };
    const a: StoredSkill = { ...makeSkill(ORIGIN, url('a'), 'a', 10), signatureVerified: note };
    const b: StoredSkill = { ...makeSkill(ORIGIN, url('b'), 'b', 10), signatureVerified: note };
    const c: StoredSkill = { ...makeSkill(ORIGIN, url('c'), 'c', 10), signatureVerified: note };
    await store.putSkill(a);
    await store.putSkills([b]);
    await store.approve(approvalFor(c, null), c);
    for (const s of [a, b, c]) expect((await store.getSkill(ORIGIN, s.url, s.digestLf))?.signatureVerified).toEqual(note);
    expect((await store.getOriginState(ORIGIN))?.skills.map((s) => s.signatureVerified)).toEqual([note, note, note]);
  });

  it('a malformed note is dropped and the bytes stay readable (the signature is then verified again)', async () => {
    const { store, factory, name } = await freshStore();
    const s = makeSkill(ORIGIN, url('a'), 'a', 10);
    for (const bad of [{ fingerprint: '', signature: 'x' }, { fingerprint: 'f' }, 'valid', null]) {
      await plant(factory, name, 'skills', { ...s, signatureVerified: bad, filesKey: '' });
      const read = await store.getSkill(ORIGIN, s.url, s.digestLf);
      expect(read?.bytes).toEqual(s.bytes);
      expect(read && 'signatureVerified' in read).toBe(false);
    }
  });
});
