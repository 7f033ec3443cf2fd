// Running byte totals of the stored skill bytes: every write keeps the per-origin
// and the overall total in the same transaction as the records, so the byte budgets read two numbers
// instead of walking every record on each write; a total that is missing or unreadable is recomputed
// once; a refused write changes neither records nor totals. Real store over fake-indexeddb.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDBIndex as FDBIndex, type IDBFactory } from 'fake-indexeddb';
import { StoreError } from '../../../lib/store/errors';
import type { StoredSkill } from '../../../lib/store/records';
import { approvalFor, freshStore, makeReport, makeSkill, plant, rawAll, rawOpen } from './helpers';

const A = 'https://a.example';
const B = 'https://b.example';

function sized(origin: string, name: string, size: number, storedAt: number): StoredSkill {
  const head = `---\nname: ${name}\n---\n`;
  return makeSkill(origin, `${origin}/skills/${name}/SKILL.md`, head + 'x'.repeat(size - head.length), storedAt);
}

/** The totals store, key → bytes. */
async function totals(factory: IDBFactory, name: string): Promise<Record<string, number>> {
  const db = await rawOpen(factory, name);
  try {
    return await new Promise((resolve, reject) => {
      const out: Record<string, number> = {};
      const req = db.transaction('totals', 'readonly').objectStore('totals').openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return resolve(out);
        out[String(c.key)] = (c.value as { bytes: number }).bytes;
        c.continue();
      };
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

/** What the totals must be: the sizes of the records, per origin and together. */
async function expected(factory: IDBFactory, name: string): Promise<Record<string, number>> {
  const out: Record<string, number> = { '*': 0 };
  for (const r of (await rawAll(factory, name, 'skills')) as { origin: string; size?: number }[]) {
    if (typeof r.size !== 'number') continue;
    out[r.origin] = (out[r.origin] ?? 0) + r.size;
    out['*'] = (out['*'] ?? 0) + r.size;
  }
  return out;
}

/** Drops the zero totals (an origin whose records all went keeps a 0). */
const nonZero = (t: Record<string, number>) => Object.fromEntries(Object.entries(t).filter(([k, v]) => v !== 0 || k === '*'));

/** How many key cursors the byte budget opened over the size indexes (its walk over every record). */
function countWalks(): { walks: () => number } {
  let walks = 0;
  const original = FDBIndex.prototype.openKeyCursor;
  vi.spyOn(FDBIndex.prototype, 'openKeyCursor').mockImplementation(function (this: InstanceType<typeof FDBIndex>, ...args: Parameters<typeof original>) {
    if (this.name === 'by-storedAt-size' || this.name === 'by-origin-storedAt-size') walks++;
    return original.apply(this, args);
  });
  return { walks: () => walks };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('running byte totals', () => {
  it('follow every kind of write: a new record, a rewrite, a batch with a repeated key, an approval, pruning, eviction', async () => {
    const { store, factory, name } = await freshStore({ maxSkillBytesPerOrigin: 2000, maxSkillsPerOrigin: 3 });
    const one = sized(A, 'one', 300, 1);
    await store.putSkill(one);
    expect(await totals(factory, name)).toEqual({ [A]: 300, '*': 300 });
    await store.putSkill({ ...one, storedAt: 2 });
    expect(await totals(factory, name)).toEqual({ [A]: 300, '*': 300 });
    const two = sized(B, 'two', 500, 3);
    await store.putSkills([two, sized(B, 'three', 200, 4), { ...two, storedAt: 5 }]);
    expect(await totals(factory, name)).toEqual({ [A]: 300, [B]: 700, '*': 1000 });
    await store.approve(approvalFor(one, null), one);
    // Per URL only the latest and approved bytes stay: a second version of `one` replaces nothing approved.
    const oneV2 = makeSkill(A, one.url, '---\nname: one\n---\nv2', 6);
    await store.putSkill(oneV2);
    const oneV3 = makeSkill(A, one.url, '---\nname: one\n---\nv3', 7);
    await store.putSkill(oneV3);
    expect(nonZero(await totals(factory, name))).toEqual(await expected(factory, name));
    // Over the per-origin record bound and the byte budget: evictions go through the totals too.
    for (let i = 0; i < 5; i++) await store.putSkill(sized(A, `x${i}`, 700, 10 + i));
    expect(nonZero(await totals(factory, name))).toEqual(await expected(factory, name));
    expect((await totals(factory, name))[A]).toBeLessThanOrEqual(2000);
  });

  it('a write within the budgets walks no record (today every write walked them all)', async () => {
    const { store } = await freshStore();
    for (let i = 0; i < 20; i++) await store.putSkill(sized(A, `s${i}`, 200, i));
    // An origin seen for the first time has no total yet: counting its (no) records once is its first write.
    await store.putSkill(sized(B, 'b0', 200, 20));
    const spy = countWalks();
    await store.putSkill(sized(A, 'more', 200, 100));
    await store.putSkills([sized(B, 'b1', 200, 101), sized(B, 'b2', 200, 102)]);
    const s = sized(A, 'approved', 200, 103);
    await store.approve(approvalFor(s, null), s);
    expect(spy.walks()).toBe(0);
  });

  it('a write refused over the budget changes neither the records nor the totals', async () => {
    const { store, factory, name } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    const kept = sized(A, 'kept', 800, 1);
    await store.approve(approvalFor(kept, null), kept);
    const before = await totals(factory, name);
    const err = await store.putSkill(sized(A, 'new', 400, 2)).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as StoreError).code).toBe('over-budget');
    expect(await totals(factory, name)).toEqual(before);
    expect(await expected(factory, name)).toEqual(before);
  });

  it('a missing or unreadable total is recomputed once, from the records, and written back', async () => {
    const { store, factory, name } = await freshStore();
    for (let i = 0; i < 5; i++) await store.putSkill(sized(A, `s${i}`, 100, i));
    const db = await rawOpen(factory, name);
    await new Promise<void>((resolve) => {
      const tx = db.transaction('totals', 'readwrite');
      tx.objectStore('totals').delete(A);
      tx.objectStore('totals').put({ bytes: 'lots' }, '*');
      tx.oncomplete = () => resolve();
    });
    db.close();
    const spy = countWalks();
    await store.putSkill(sized(A, 'next', 100, 10));
    expect(spy.walks()).toBe(2);
    expect(await totals(factory, name)).toEqual({ [A]: 600, '*': 600 });
    await store.putSkill(sized(A, 'after', 100, 11));
    expect(spy.walks()).toBe(2);
    expect(await totals(factory, name)).toEqual({ [A]: 700, '*': 700 });
  });

  it('a total that says more than the records hold is set right by the walk it causes, and evicts nothing', async () => {
    const { store, factory, name } = await freshStore({ maxSkillBytesPerOrigin: 1000 });
    await store.putSkill(sized(A, 'a', 300, 1));
    await plant(factory, name, 'totals', { bytes: 5000 }, A);
    await store.putSkill(sized(A, 'b', 300, 2));
    expect((await rawAll(factory, name, 'skills')).length).toBe(2);
    expect((await totals(factory, name))[A]).toBe(600);
  });
});

describe('skill records go with their reports', () => {
  it('an evicted report takes its origin’s skill bytes along; an origin with approvals keeps its report and bytes', async () => {
    const { store, factory, name } = await freshStore({ maxReports: 2 });
    const gone = sized(A, 'gone', 300, 1);
    const approved = sized(B, 'approved', 300, 1);
    const unapproved = sized(B, 'other', 200, 2);
    await store.putSkill(gone);
    await store.putSkills([approved, unapproved]);
    await store.approve(approvalFor(approved, null), approved);
    await store.putReport(makeReport(A, 10));
    await store.putReport(makeReport(B, 20));
    await store.putReport(makeReport('https://c.example', 30));
    expect(await store.getReport(A)).toBeNull();
    expect(await store.getSkill(A, gone.url, gone.digestLf)).toBeNull();
    expect(await store.getSkill(B, approved.url, approved.digestLf)).not.toBeNull();
    expect(await store.getSkill(B, unapproved.url, unapproved.digestLf)).not.toBeNull();
    expect(nonZero(await totals(factory, name))).toEqual(await expected(factory, name));
    expect((await totals(factory, name))[A]).toBe(0);
  });

  it('an evicted origin keeps every record when one of its approvals is unreadable (its binding is unknown)', async () => {
    const { store, factory, name } = await freshStore({ maxReports: 1 });
    const s = sized(A, 's', 100, 1);
    await store.putSkill(s);
    await store.putReport(makeReport(A, 10));
    // An approval the reader refuses still counts for eviction: the report stays, and so do the bytes.
    await plant(factory, name, 'approvals', { origin: A, url: 'broken' });
    await store.putReport(makeReport(B, 20));
    expect(await store.getSkill(A, s.url, s.digestLf)).not.toBeNull();
  });
});
