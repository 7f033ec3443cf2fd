import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../../lib/store/errors';
import { openTrustStore } from '../../../lib/store/idb-store';
import { approvalFor, freshStore, keyPair, makeSkill, plant, rawAll } from './helpers';

const ORIGIN = 'https://docs.example.com';
const A = keyPair(1);
const B = keyPair(2);
const C = keyPair(3);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pinIfAbsent', () => {
  it('pins the first key, matches it later and refreshes lastSeen', async () => {
    const { store } = await freshStore();
    expect(await store.getPin(ORIGIN)).toBeNull();
    const first = await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    expect(first).toEqual({ result: 'pinned', pin: { origin: ORIGIN, key: A.key, fingerprint: A.fingerprint, firstSeen: 100, lastSeen: 100 } });
    const again = await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 250);
    expect(again.result).toBe('match');
    expect(again.pin).toMatchObject({ firstSeen: 100, lastSeen: 250 });
    expect(await store.getPin(ORIGIN)).toMatchObject({ firstSeen: 100, lastSeen: 250 });
  });

  it('never moves lastSeen backwards', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 500);
    const r = await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 400);
    expect(r.pin?.lastSeen).toBe(500);
    expect((await store.getPin(ORIGIN))?.lastSeen).toBe(500);
  });

  it('reports a different key as mismatch and writes nothing', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const r = await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 200);
    expect(r).toEqual({ result: 'mismatch', pin: { origin: ORIGIN, key: A.key, fingerprint: A.fingerprint, firstSeen: 100, lastSeen: 100 } });
    expect(await store.getPin(ORIGIN)).toEqual(r.pin);
  });

  it('two concurrent first sights with different keys: exactly one is pinned', async () => {
    const { store } = await freshStore();
    const results = await Promise.all([store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100), store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 100)]);
    expect(results.map((r) => r.result).sort()).toEqual(['mismatch', 'pinned']);
    const winner = results.find((r) => r.result === 'pinned');
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(winner?.pin.fingerprint);
    for (const r of results) expect(r.pin?.fingerprint).toBe(winner?.pin.fingerprint);
  });

  it('two store instances on one database (two contexts): exactly one is pinned', async () => {
    const { store: first, factory, name } = await freshStore();
    const second = await openTrustStore({ name, indexedDB: factory });
    const results = await Promise.all([
      first.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100),
      second.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 100),
      first.pinIfAbsent(ORIGIN, C.key, C.fingerprint, 100),
    ]);
    expect(results.filter((r) => r.result === 'pinned')).toHaveLength(1);
    expect(results.filter((r) => r.result === 'mismatch')).toHaveLength(2);
    const stored = await second.getPin(ORIGIN);
    expect(stored?.fingerprint).toBe(results.find((r) => r.result === 'pinned')?.pin.fingerprint);
    second.close();
  });

  it('refuses empty or non-finite arguments without writing', async () => {
    const { store } = await freshStore();
    await expect(store.pinIfAbsent('', A.key, A.fingerprint, 1)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, Number.NaN)).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.listPins()).toEqual([]);
  });
});

describe('replacePin', () => {
  it('with a stale expected fingerprint writes nothing and returns false', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const skill = makeSkill(ORIGIN, `${ORIGIN}/s/SKILL.md`, 'x', 110);
    await store.approve(approvalFor(skill, A.fingerprint), skill);
    expect(await store.replacePin(ORIGIN, B.fingerprint, C.key, C.fingerprint, 200)).toBe(false);
    expect(await store.replacePin(ORIGIN, null, C.key, C.fingerprint, 200)).toBe(false);
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(A.fingerprint);
    expect(await store.getApprovals(ORIGIN)).toHaveLength(1);
  });

  it('replaces the pin and deletes that origin’s approvals, and only them, in one go', async () => {
    const { store } = await freshStore();
    const other = 'https://other.example.org';
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await store.pinIfAbsent(other, A.key, A.fingerprint, 100);
    const s1 = makeSkill(ORIGIN, `${ORIGIN}/a/SKILL.md`, 'a', 110);
    const s2 = makeSkill(ORIGIN, `${ORIGIN}/b/SKILL.md`, 'b', 110);
    const s3 = makeSkill(other, `${other}/a/SKILL.md`, 'c', 110);
    for (const s of [s1, s2, s3]) await store.approve(approvalFor(s, A.fingerprint), s);
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300)).toBe(true);
    expect(await store.getPin(ORIGIN)).toEqual({ origin: ORIGIN, key: B.key, fingerprint: B.fingerprint, firstSeen: 300, lastSeen: 300 });
    expect(await store.getApprovals(ORIGIN)).toEqual([]);
    expect(await store.getApprovals(other)).toHaveLength(1);
    // The verified bytes stay (they are shown in the diff when re-approving).
    expect(await store.getSkill(ORIGIN, s1.url, s1.digestLf)).not.toBeNull();
  });

  it('carries an archive approval over only with the same file set', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const archiveOf = (name: string, filesDigest: string) => {
      const s = makeSkill(ORIGIN, `${ORIGIN}/${name}.zip`, name, 110);
      return { ...s, archive: { sha256: 'd'.repeat(64), format: 'zip' as const, entries: [{ path: 'SKILL.md', size: 1, type: 'file' as const, sha256: s.digestRaw }], filesDigest } };
    };
    const same = archiveOf('same', '1'.repeat(64));
    const swapped = archiveOf('swapped', '2'.repeat(64));
    for (const s of [same, swapped]) {
      await store.approve({ ...approvalFor(s, A.fingerprint), archive: { filesDigest: s.archive.filesDigest, sha256: s.archive.sha256, files: [] } }, s);
    }
    const carry = [
      { url: same.url, digestLf: same.digestLf, filesDigest: '1'.repeat(64) },
      { url: swapped.url, digestLf: swapped.digestLf, filesDigest: '3'.repeat(64) },
    ];
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300, carry)).toBe(true);
    expect((await store.getApprovals(ORIGIN)).map((a) => [a.url, a.keyFingerprint])).toEqual([[same.url, B.fingerprint]]);
  });

  it('is one transaction: when deleting the approvals fails, the old pin stays too', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const s = makeSkill(ORIGIN, `${ORIGIN}/a/SKILL.md`, 'a', 110);
    await store.approve(approvalFor(s, A.fingerprint), s);
    const del = IDBObjectStore.prototype.delete;
    vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementation(function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
      if (this.name === 'approvals') throw new DOMException('disk full', 'QuotaExceededError');
      return del.call(this, key);
    });
    await expect(store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300)).rejects.toMatchObject({ code: 'quota-exceeded' });
    vi.restoreAllMocks();
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(A.fingerprint);
    expect(await store.getApprovals(ORIGIN)).toHaveLength(1);
  });

  it('expects no pin with null', async () => {
    const { store } = await freshStore();
    expect(await store.replacePin(ORIGIN, null, A.key, A.fingerprint, 50)).toBe(true);
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(A.fingerprint);
  });

  it('trusting the key already pinned changes nothing and keeps approvals', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const s = makeSkill(ORIGIN, `${ORIGIN}/a/SKILL.md`, 'a', 110);
    await store.approve(approvalFor(s, A.fingerprint), s);
    expect(await store.replacePin(ORIGIN, A.fingerprint, A.key, A.fingerprint, 300)).toBe(true);
    expect(await store.getPin(ORIGIN)).toMatchObject({ firstSeen: 100 });
    expect(await store.getApprovals(ORIGIN)).toHaveLength(1);
  });

  it('concurrent replacements from the same expectation: only one wins', async () => {
    const { store: first, factory, name } = await freshStore();
    const second = await openTrustStore({ name, indexedDB: factory });
    await first.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const results = await Promise.all([first.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 200), second.replacePin(ORIGIN, A.fingerprint, C.key, C.fingerprint, 200)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results[0] ? B : C;
    expect((await first.getPin(ORIGIN))?.fingerprint).toBe(winner.fingerprint);
    second.close();
  });
});

describe('forgetPin and listPins', () => {
  it('lists every pin and forgets one', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent('https://a.example', A.key, A.fingerprint, 1);
    await store.pinIfAbsent('https://b.example', B.key, B.fingerprint, 2);
    expect((await store.listPins()).map((p) => p.origin)).toEqual(['https://a.example', 'https://b.example']);
    await store.forgetPin('https://a.example');
    expect((await store.listPins()).map((p) => p.origin)).toEqual(['https://b.example']);
    // After forgetting, the next key is a first sight again.
    expect((await store.pinIfAbsent('https://a.example', C.key, C.fingerprint, 3)).result).toBe('pinned');
  });
});

describe('corrupt pin records', () => {
  it('are skipped by readers, reported, and kept', async () => {
    const { store, factory, name, errors } = await freshStore();
    await store.pinIfAbsent('https://good.example', A.key, A.fingerprint, 1);
    const broken = { origin: ORIGIN, key: 42, fingerprint: null };
    await plant(factory, name, 'pins', broken);
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect((await store.listPins()).map((p) => p.origin)).toEqual(['https://good.example']);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.every((e) => e instanceof StoreError && e.code === 'corrupt-record' && e.store === 'pins')).toBe(true);
    expect(await rawAll(factory, name, 'pins')).toContainEqual(broken);
  });

  it('are never overwritten by a first sight: pinIfAbsent refuses with corrupt-record', async () => {
    const { store, factory, name } = await freshStore();
    const broken = { origin: ORIGIN, key: 'k', fingerprint: 'f', firstSeen: 'yesterday' };
    await plant(factory, name, 'pins', broken);
    await expect(store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 5)).rejects.toMatchObject({ code: 'corrupt-record' });
    expect(await store.replacePin(ORIGIN, null, A.key, A.fingerprint, 5)).toBe(false);
    expect(await rawAll(factory, name, 'pins')).toEqual([broken]);
  });
});
