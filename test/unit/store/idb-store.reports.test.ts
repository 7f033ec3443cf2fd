import { describe, expect, it } from 'vitest';
import type { OriginReport } from '../../../lib/types';
import { approvalFor, freshStore, keyPair, makeReport, makeSkill, plant, rawAll } from './helpers';

const o = (n: number): string => `https://site${n}.example`;

describe('reports', () => {
  it('keeps the last report per origin and lists them', async () => {
    const { store } = await freshStore();
    await store.putReport(makeReport(o(1), 100));
    const newer = { ...makeReport(o(1), 200), publishes: true };
    await store.putReport(newer);
    await store.putReport(makeReport(o(2), 150));
    expect(await store.getReport(o(1))).toEqual(newer);
    expect(await store.getReport(o(3))).toBeNull();
    expect((await store.listReports()).map((r) => r.origin).sort()).toEqual([o(1), o(2)]);
  });

  it('refuses a malformed report', async () => {
    const { store } = await freshStore();
    const bad = { ...makeReport(o(1), 1), reportVersion: 2 } as unknown as OriginReport;
    await expect(store.putReport(bad)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.putReport({ ...makeReport(o(1), 1), skills: 'none' } as unknown as OriginReport)).rejects.toMatchObject({
      code: 'invalid-input',
    });
    expect(await store.listReports()).toEqual([]);
  });

  it('over the bound, evicts the report finished longest ago', async () => {
    const { store } = await freshStore({ maxReports: 2 });
    await store.putReport(makeReport(o(1), 300));
    await store.putReport(makeReport(o(2), 100));
    await store.putReport(makeReport(o(3), 200));
    expect(await store.getReport(o(2))).toBeNull();
    expect(await store.getReport(o(1))).not.toBeNull();
    expect(await store.getReport(o(3))).not.toBeNull();
    // A report still being probed (no times yet) counts as oldest, but the one just written stays.
    await store.putReport(makeReport(o(4), null));
    expect(await store.getReport(o(4))).not.toBeNull();
    expect(await store.getReport(o(3))).toBeNull();
  });

  it('never evicts the report of an origin with a pin or an approval', async () => {
    const { store } = await freshStore({ maxReports: 2 });
    const k = keyPair(9);
    await store.pinIfAbsent(o(1), k.key, k.fingerprint, 1);
    const s = makeSkill(o(2), `${o(2)}/SKILL.md`, 'x', 1);
    await store.approve(approvalFor(s, null), s);
    await store.putReport(makeReport(o(1), 10));
    await store.putReport(makeReport(o(2), 20));
    await store.putReport(makeReport(o(3), 30));
    await store.putReport(makeReport(o(4), 40));
    expect(await store.getReport(o(1))).not.toBeNull();
    expect(await store.getReport(o(2))).not.toBeNull();
    expect(await store.getReport(o(3))).toBeNull();
    expect(await store.getReport(o(4))).not.toBeNull();
  });

  it('a corrupt report is skipped, reported and kept', async () => {
    const { store, factory, name, errors } = await freshStore();
    await store.putReport(makeReport(o(1), 1));
    const broken = { origin: o(2), order: 5, report: { reportVersion: 1, origin: o(2) } };
    await plant(factory, name, 'reports', broken);
    // A record whose report names another origin is corrupt too.
    await plant(factory, name, 'reports', { origin: o(3), order: 5, report: makeReport(o(4), 5) });
    expect(await store.getReport(o(2))).toBeNull();
    expect(await store.getReport(o(3))).toBeNull();
    expect((await store.listReports()).map((r) => r.origin)).toEqual([o(1)]);
    expect(errors.filter((e) => e.code === 'corrupt-record' && e.store === 'reports')).toHaveLength(4);
    expect(await rawAll(factory, name, 'reports')).toContainEqual(broken);
  });
});
