// Stored skill bytes are bounded by bytes, per origin and in total, not only by records:
// over a budget the oldest unapproved bytes are evicted, approved bytes
// never; when only approved bytes are left, new bytes are refused (`over-budget`) and nothing
// stored before is lost.
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/store/errors';
import { DEFAULT_MAX_SKILL_BYTES, DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN } from '../../../lib/store/idb-store';
import type { TrustStore } from '../../../lib/store/store-api';
import type { StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, makeSkill } from './helpers';

const A = 'https://a.example';
const B = 'https://b.example';
const C = 'https://c.example';

/** A skill of exactly `size` bytes. */
function sized(origin: string, name: string, size: number, storedAt: number): StoredSkill {
  const head = `---\nname: ${name}\n---\n`;
  return makeSkill(origin, `${origin}/skills/${name}/SKILL.md`, head + 'x'.repeat(size - head.length), storedAt);
}

async function has(store: TrustStore, s: StoredSkill): Promise<boolean> {
  return (await store.getSkill(s.origin, s.url, s.digestLf)) !== null;
}

async function refusal(p: Promise<unknown>): Promise<StoreError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

describe('skill byte budgets', () => {
  it('documents its defaults: 32 MiB per origin, 256 MiB in total', () => {
    expect(DEFAULT_MAX_SKILL_BYTES_PER_ORIGIN).toBe(32 * 1024 * 1024);
    expect(DEFAULT_MAX_SKILL_BYTES).toBe(256 * 1024 * 1024);
  });

  it('per origin: the oldest unapproved bytes are evicted first', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const one = sized(A, 'one', 400, 1);
    const two = sized(A, 'two', 400, 2);
    const three = sized(A, 'three', 400, 3);
    const other = sized(B, 'other', 400, 0);
    for (const s of [other, one, two, three]) await store.putSkill(s);
    expect([await has(store, one), await has(store, two), await has(store, three)]).toEqual([false, true, true]);
    // Another origin's bytes do not count against this one.
    expect(await has(store, other)).toBe(true);
    store.close();
  });

  it('per origin: approved bytes are never evicted, even when oldest', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const approved = sized(A, 'approved', 400, 1);
    await store.approve(approvalFor(approved, null), approved);
    const two = sized(A, 'two', 400, 2);
    const three = sized(A, 'three', 400, 3);
    await store.putSkill(two);
    await store.putSkill(three);
    expect([await has(store, approved), await has(store, two), await has(store, three)]).toEqual([true, false, true]);
    store.close();
  });

  it('when only approved bytes are left, new bytes are refused and nothing stored is lost', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const approved = sized(A, 'approved', 700, 1);
    await store.approve(approvalFor(approved, null), approved);
    const newer = sized(A, 'newer', 500, 2);
    const err = await refusal(store.putSkill(newer));
    expect(err.code).toBe('over-budget');
    expect(err.message).toContain(A);
    expect(await has(store, newer)).toBe(false);
    expect(await has(store, approved)).toBe(true);
    expect(await store.getApproval(A, approved.url)).not.toBeNull();
    store.close();
  });

  it('a refused batch keeps every record stored before (its evictions are undone too)', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const approved = sized(A, 'approved', 600, 1);
    await store.approve(approvalFor(approved, null), approved);
    const old = sized(A, 'old', 300, 2);
    await store.putSkill(old);
    const batch = [sized(A, 'n1', 300, 3), sized(A, 'n2', 300, 3)];
    expect((await refusal(store.putSkills(batch))).code).toBe('over-budget');
    expect(await has(store, old)).toBe(true);
    expect(await has(store, approved)).toBe(true);
    for (const s of batch) expect(await has(store, s)).toBe(false);
    store.close();
  });

  it('a batch that fits evicts older unapproved bytes of the origin, never its own records', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const old = sized(A, 'old', 400, 1);
    await store.putSkill(old);
    const batch = [sized(A, 'n1', 400, 2), sized(A, 'n2', 400, 2)];
    await store.putSkills(batch);
    expect(await has(store, old)).toBe(false);
    for (const s of batch) expect(await has(store, s)).toBe(true);
    store.close();
  });

  it('in total: the oldest unapproved bytes of any origin go first', async () => {
    const { store } = await freshStore({ maxSkillBytes: 1000 });
    const a = sized(A, 'a', 400, 1);
    const b = sized(B, 'b', 400, 2);
    const c = sized(C, 'c', 400, 3);
    for (const s of [a, b, c]) await store.putSkill(s);
    expect([await has(store, a), await has(store, b), await has(store, c)]).toEqual([false, true, true]);
    store.close();
  });

  it('in total: approved bytes of other origins are kept, and new bytes refused when only they are left', async () => {
    const { store } = await freshStore({ maxSkillBytes: 1000 });
    const a = sized(A, 'a', 500, 1);
    const b = sized(B, 'b', 400, 2);
    await store.approve(approvalFor(a, null), a);
    await store.approve(approvalFor(b, null), b);
    const c = sized(C, 'c', 400, 3);
    const err = await refusal(store.putSkill(c));
    expect(err.code).toBe('over-budget');
    expect(err.message).toContain('all sites');
    expect([await has(store, a), await has(store, b), await has(store, c)]).toEqual([true, true, false]);
    store.close();
  });

  it('an approval makes room by evicting unapproved bytes, and is itself never refused', async () => {
    const { store } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const first = sized(A, 'first', 600, 1);
    await store.approve(approvalFor(first, null), first);
    const loose = sized(A, 'loose', 300, 2);
    await store.putSkill(loose);
    const second = sized(A, 'second', 600, 3);
    await store.approve(approvalFor(second, null), second);
    expect([await has(store, first), await has(store, loose), await has(store, second)]).toEqual([true, false, true]);
    store.close();
  });
});
