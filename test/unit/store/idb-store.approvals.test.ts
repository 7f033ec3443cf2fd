import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../../lib/store/errors';
import type { StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, keyPair, makeSkill, plant, rawAll } from './helpers';

const ORIGIN = 'https://docs.example.com';
const URL1 = `${ORIGIN}/skills/search/SKILL.md`;
const URL2 = `${ORIGIN}/skills/write/SKILL.md`;
const A = keyPair(1);
const B = keyPair(2);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('approve', () => {
  it('stores the approval and the bytes it binds; getApproval/getApprovals/listApprovals read them', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 1);
    const skill = makeSkill(ORIGIN, URL1, '---\nname: search\n---\r\nbody\r\n', 10);
    const approval = approvalFor(skill, A.fingerprint);
    await store.approve(approval, skill);
    expect(await store.getApproval(ORIGIN, URL1)).toEqual(approval);
    expect(await store.getApprovals(ORIGIN)).toEqual([approval]);
    expect(await store.listApprovals()).toEqual([approval]);
    const stored = await store.getSkill(ORIGIN, URL1, skill.digestLf);
    expect(stored?.bytes).toBeInstanceOf(Uint8Array);
    expect(stored?.bytes).toEqual(skill.bytes);
    expect(skill.digestLf).not.toBe(skill.digestRaw);
  });

  it('approvals are keyed by (origin, url): approving new bytes replaces the old approval', async () => {
    const { store } = await freshStore();
    const v1 = makeSkill(ORIGIN, URL1, 'one', 10);
    const v2 = makeSkill(ORIGIN, URL1, 'two', 20);
    await store.approve(approvalFor(v1, null), v1);
    await store.approve(approvalFor(v2, null), v2);
    expect(await store.getApprovals(ORIGIN)).toEqual([approvalFor(v2, null)]);
  });

  it('refuses bytes that the approval does not bind, writing nothing', async () => {
    const { store } = await freshStore();
    const skill = makeSkill(ORIGIN, URL1, 'one', 10);
    const other = makeSkill(ORIGIN, URL1, 'two', 10);
    await expect(store.approve(approvalFor(skill, null), other)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.approve(approvalFor(skill, null), { ...skill, url: URL2 })).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.listApprovals()).toEqual([]);
    expect(await store.getLatestSkill(ORIGIN, URL1)).toBeNull();
  });

  it('refuses an approval naming a key that is not the pinned one (pin changed meanwhile)', async () => {
    const { store } = await freshStore();
    const skill = makeSkill(ORIGIN, URL1, 'one', 10);
    await expect(store.approve(approvalFor(skill, A.fingerprint), skill)).rejects.toMatchObject({ code: 'pin-changed' });
    await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 1);
    await expect(store.approve(approvalFor(skill, A.fingerprint), skill)).rejects.toMatchObject({ code: 'pin-changed' });
    expect(await store.listApprovals()).toEqual([]);
    expect(await store.getSkill(ORIGIN, URL1, skill.digestLf)).toBeNull();
  });

  it('refuses malformed approvals and skills with invalid-input; earlier data stays', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 1);
    const good = makeSkill(ORIGIN, URL1, 'one', 10);
    await store.approve(approvalFor(good, A.fingerprint), good);
    const next = makeSkill(ORIGIN, URL1, 'two', 20);
    const badSkill = { ...next, bytes: 'not bytes' } as unknown as StoredSkill;
    await expect(store.approve(approvalFor(next, A.fingerprint), badSkill)).rejects.toMatchObject({ code: 'invalid-input' });
    const badApproval = { ...approvalFor(next, A.fingerprint), statusAtApproval: 'maybe' } as unknown as ReturnType<typeof approvalFor>;
    await expect(store.approve(badApproval, next)).rejects.toBeInstanceOf(StoreError);
    await expect(store.approve({ ...approvalFor(next, A.fingerprint), digestLf: 'zz' }, next)).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getApproval(ORIGIN, URL1)).toEqual(approvalFor(good, A.fingerprint));
    expect((await store.getLatestSkill(ORIGIN, URL1))?.digestLf).toBe(good.digestLf);
  });

  it('a write that fails mid-transaction (quota) leaves the previous approval, bytes and pin intact', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 1);
    const good = makeSkill(ORIGIN, URL1, 'one', 10);
    await store.approve(approvalFor(good, A.fingerprint), good);

    const put = IDBObjectStore.prototype.put;
    let approvalsPut = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'approvals') approvalsPut++;
      if (this.name === 'skills') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.call(this, value, key);
    });
    const next = makeSkill(ORIGIN, URL1, 'two', 20);
    const err = await store.approve(approvalFor(next, A.fingerprint), next).catch((e: unknown) => e);
    expect(approvalsPut).toBe(1); // the approval had been written inside the transaction...
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('quota-exceeded');
    vi.restoreAllMocks();
    // ...and the abort undid it.
    expect(await store.getApproval(ORIGIN, URL1)).toEqual(approvalFor(good, A.fingerprint));
    expect(await store.getSkill(ORIGIN, URL1, next.digestLf)).toBeNull();
    expect((await store.getSkill(ORIGIN, URL1, good.digestLf))?.bytes).toEqual(good.bytes);
    expect((await store.getPin(ORIGIN))?.fingerprint).toBe(A.fingerprint);
    // The store still works after the failure.
    await store.approve(approvalFor(next, A.fingerprint), next);
    expect((await store.getApproval(ORIGIN, URL1))?.digestLf).toBe(next.digestLf);
  });

  it('a record IndexedDB refuses mid-transaction (DataError on a key) aborts the whole write', async () => {
    const { store } = await freshStore();
    const good = makeSkill(ORIGIN, URL1, 'one', 10);
    await store.approve(approvalFor(good, null), good);
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      // The skill record loses its key path on the way in: IndexedDB throws DataError.
      if (this.name === 'skills') return put.call(this, { ...(value as object), digestLf: undefined }, key);
      return put.call(this, value, key);
    });
    const next = makeSkill(ORIGIN, URL1, 'two', 20);
    await expect(store.approve(approvalFor(next, null), next)).rejects.toMatchObject({ code: 'invalid-input' });
    vi.restoreAllMocks();
    expect(await store.getApproval(ORIGIN, URL1)).toEqual(approvalFor(good, null));
  });
});

describe('revoke', () => {
  it('deletes one approval and keeps the others', async () => {
    const { store } = await freshStore();
    const s1 = makeSkill(ORIGIN, URL1, 'one', 10);
    const s2 = makeSkill(ORIGIN, URL2, 'two', 10);
    await store.approve(approvalFor(s1, null), s1);
    await store.approve(approvalFor(s2, null), s2);
    await store.revoke(ORIGIN, URL1);
    expect(await store.getApproval(ORIGIN, URL1)).toBeNull();
    expect((await store.getApprovals(ORIGIN)).map((a) => a.url)).toEqual([URL2]);
  });
});

describe('importApproval', () => {
  it('adds, recognises the same one, keeps a different one and refuses a foreign key', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 1);
    const s1 = makeSkill(ORIGIN, URL1, 'one', 10);
    const a1 = approvalFor(s1, A.fingerprint);
    expect(await store.importApproval(a1)).toBe('added');
    expect(await store.importApproval(a1)).toBe('unchanged');
    const s1b = makeSkill(ORIGIN, URL1, 'one, changed', 20);
    expect(await store.importApproval(approvalFor(s1b, A.fingerprint))).toBe('different');
    expect(await store.getApproval(ORIGIN, URL1)).toEqual(a1);
    const s2 = makeSkill(ORIGIN, URL2, 'two', 10);
    expect(await store.importApproval(approvalFor(s2, B.fingerprint))).toBe('pin-mismatch');
    expect(await store.getApproval(ORIGIN, URL2)).toBeNull();
  });
});

describe('corrupt approval records', () => {
  it('are skipped by readers, reported, and kept', async () => {
    const { store, factory, name, errors } = await freshStore();
    const s1 = makeSkill(ORIGIN, URL1, 'one', 10);
    await store.approve(approvalFor(s1, null), s1);
    const broken = { origin: ORIGIN, url: URL2, digestLf: 'nope' };
    await plant(factory, name, 'approvals', broken);
    expect((await store.getApprovals(ORIGIN)).map((a) => a.url)).toEqual([URL1]);
    expect((await store.listApprovals()).map((a) => a.url)).toEqual([URL1]);
    expect(await store.getApproval(ORIGIN, URL2)).toBeNull();
    expect(errors.filter((e) => e.code === 'corrupt-record' && e.store === 'approvals')).toHaveLength(3);
    expect(await rawAll(factory, name, 'approvals')).toContainEqual(broken);
    // A corrupt approval is never replaced by an import.
    const s2 = makeSkill(ORIGIN, URL2, 'two', 10);
    expect(await store.importApproval(approvalFor(s2, null))).toBe('different');
    expect(await rawAll(factory, name, 'approvals')).toContainEqual(broken);
  });
});
