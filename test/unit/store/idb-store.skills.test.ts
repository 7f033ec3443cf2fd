import { describe, expect, it } from 'vitest';
import type { StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, makeSkill, plant, rawAll } from './helpers';

const ORIGIN = 'https://docs.example.com';
const URL1 = `${ORIGIN}/skills/search/SKILL.md`;

describe('verified bytes', () => {
  it('read back as a Uint8Array holding exactly the stored bytes, even from a view into a bigger buffer', async () => {
    const { store } = await freshStore();
    const big = new Uint8Array(4096).map((_, i) => i & 0xff);
    const base = makeSkill(ORIGIN, URL1, 'x', 10);
    const view = big.subarray(100, 132);
    await store.putSkill({ ...base, bytes: view });
    const stored = await store.getSkill(ORIGIN, URL1, base.digestLf);
    expect(stored?.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(stored?.bytes ?? [])).toEqual(Array.from(view));
    expect(stored?.bytes.buffer.byteLength).toBe(32);
  });

  it('accepts a stored ArrayBuffer (older writer) and returns a Uint8Array', async () => {
    const { store, factory, name } = await freshStore();
    const skill = makeSkill(ORIGIN, URL1, 'abc', 10);
    await plant(factory, name, 'skills', { ...skill, bytes: skill.bytes.slice().buffer, filesKey: '' });
    const stored = await store.getSkill(ORIGIN, URL1, skill.digestLf);
    expect(stored?.bytes).toBeInstanceOf(Uint8Array);
    expect(stored?.bytes).toEqual(skill.bytes);
  });

  it('keeps an archive listing', async () => {
    const { store } = await freshStore();
    const skill: StoredSkill = {
      ...makeSkill(ORIGIN, `${ORIGIN}/s.zip`, 'root', 10),
      archive: { sha256: 'c'.repeat(64), format: 'zip', entries: [{ path: 'SKILL.md', size: 4, type: 'file' }] },
    };
    await store.putSkill(skill);
    expect((await store.getSkill(ORIGIN, skill.url, skill.digestLf))?.archive).toEqual(skill.archive);
  });

  it('getLatestSkill returns the most recently stored bytes of a URL, whatever the digest', async () => {
    const { store } = await freshStore();
    const older = makeSkill(ORIGIN, URL1, 'older', 10);
    const newer = makeSkill(ORIGIN, URL1, 'newer', 20);
    await store.putSkill(newer);
    await store.putSkill(older); // written last but stored earlier
    expect((await store.getLatestSkill(ORIGIN, URL1))?.digestLf).toBe(newer.digestLf);
    expect(await store.getLatestSkill(ORIGIN, `${ORIGIN}/none`)).toBeNull();
    expect(await store.getLatestSkill('https://other.example', URL1)).toBeNull();
  });

  it('skips a corrupt latest record (reported, kept) and returns the one before', async () => {
    const { store, factory, name, errors } = await freshStore();
    const good = makeSkill(ORIGIN, URL1, 'good', 10);
    await store.putSkill(good);
    const broken = { ...makeSkill(ORIGIN, URL1, 'broken', 20), bytes: 17 };
    await plant(factory, name, 'skills', { ...broken, filesKey: '' });
    expect((await store.getLatestSkill(ORIGIN, URL1))?.digestLf).toBe(good.digestLf);
    expect(errors.map((e) => e.code)).toEqual(['corrupt-record']);
    expect(await store.getSkill(ORIGIN, URL1, broken.digestLf)).toBeNull();
    expect(await rawAll(factory, name, 'skills')).toHaveLength(2);
  });

  it('refuses a malformed skill', async () => {
    const { store } = await freshStore();
    const skill = makeSkill(ORIGIN, URL1, 'a', 10);
    await expect(store.putSkill({ ...skill, storedAt: Number.POSITIVE_INFINITY })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.putSkill({ ...skill, digestRaw: 'sha256:x' })).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getLatestSkill(ORIGIN, URL1)).toBeNull();
  });
});

describe('bounded bytes', () => {
  it('keeps only the latest bytes of an unapproved URL', async () => {
    const { store } = await freshStore();
    const v1 = makeSkill(ORIGIN, URL1, 'v1', 10);
    const v2 = makeSkill(ORIGIN, URL1, 'v2', 20);
    const v3 = makeSkill(ORIGIN, URL1, 'v3', 30);
    for (const s of [v1, v2, v3]) await store.putSkill(s);
    expect(await store.getSkill(ORIGIN, URL1, v1.digestLf)).toBeNull();
    expect(await store.getSkill(ORIGIN, URL1, v2.digestLf)).toBeNull();
    expect(await store.getSkill(ORIGIN, URL1, v3.digestLf)).not.toBeNull();
  });

  it('never evicts bytes an approval binds (the diff needs them)', async () => {
    const { store } = await freshStore();
    const approved = makeSkill(ORIGIN, URL1, 'approved', 10);
    await store.approve(approvalFor(approved, null), approved);
    for (let i = 0; i < 5; i++) await store.putSkill(makeSkill(ORIGIN, URL1, `changed ${i}`, 20 + i));
    expect(await store.getSkill(ORIGIN, URL1, approved.digestLf)).not.toBeNull();
    expect((await store.getLatestSkill(ORIGIN, URL1))?.bytes).toEqual(new TextEncoder().encode('changed 4'));
    expect(await store.getSkill(ORIGIN, URL1, makeSkill(ORIGIN, URL1, 'changed 3', 0).digestLf)).toBeNull();
  });

  it('after a revoke the formerly approved bytes become evictable', async () => {
    const { store } = await freshStore();
    const approved = makeSkill(ORIGIN, URL1, 'approved', 10);
    await store.approve(approvalFor(approved, null), approved);
    await store.revoke(ORIGIN, URL1);
    await store.putSkill(makeSkill(ORIGIN, URL1, 'next', 20));
    expect(await store.getSkill(ORIGIN, URL1, approved.digestLf)).toBeNull();
  });

  it('caps the records of one origin, evicting the oldest unapproved ones first', async () => {
    const { store } = await freshStore({ maxSkillsPerOrigin: 3 });
    const approvedOld = makeSkill(ORIGIN, `${ORIGIN}/0/SKILL.md`, 'zero', 1);
    await store.approve(approvalFor(approvedOld, null), approvedOld);
    const others = [1, 2, 3, 4].map((i) => makeSkill(ORIGIN, `${ORIGIN}/${i}/SKILL.md`, `s${i}`, 10 * i));
    for (const s of others) await store.putSkill(s);
    await store.putSkill(makeSkill('https://elsewhere.example', 'https://elsewhere.example/SKILL.md', 'e', 0));
    const present = await Promise.all([approvedOld, ...others].map(async (s) => (await store.getSkill(s.origin, s.url, s.digestLf)) !== null));
    expect(present).toEqual([true, false, false, true, true]);
    expect(await store.getLatestSkill('https://elsewhere.example', 'https://elsewhere.example/SKILL.md')).not.toBeNull();
  });

  it('never evicts a corrupt record (it is kept)', async () => {
    const { store, factory, name } = await freshStore();
    const broken = { ...makeSkill(ORIGIN, URL1, 'broken', 5), bytes: 'text' };
    await plant(factory, name, 'skills', { ...broken, filesKey: '' });
    await store.putSkill(makeSkill(ORIGIN, URL1, 'a', 10));
    await store.putSkill(makeSkill(ORIGIN, URL1, 'b', 20));
    const raws = (await rawAll(factory, name, 'skills')) as { digestLf: string }[];
    expect(raws.map((r) => r.digestLf).sort()).toEqual([broken.digestLf, makeSkill(ORIGIN, URL1, 'b', 0).digestLf].sort());
  });
});
