// The private windows' store (lib/store/private-store.ts): reads the normal store, never writes it,
// keeps its own writes in memory with the store's own rules (compare-and-set pins, revoked keys never
// pinned, approvals bound to the pin, one whole commit) and bounds, and forgets them on clear().
import { describe, expect, it } from 'vitest';
import { pinsPage as sortedPage } from '../../../lib/types/pins-page';
import { createPrivateStore } from '../../../lib/store/private-store';
import type { ProbeCommit, TrustStore } from '../../../lib/store/store-api';
import { dumpDatabase } from '../../support/trust-store';
import { approvalFor, freshStore, keyPair, makeCacheEntry, makeReport, makeSkill, type TestStore } from './helpers';

const ORIGIN = 'https://private.example';
const url = (n: string): string => `${ORIGIN}/skills/${n}/SKILL.md`;
const K = keyPair(21);
const K2 = keyPair(22);

const dump = (t: TestStore): Promise<Record<string, unknown[]>> => dumpDatabase(t.factory, t.name);

async function seeded(): Promise<{ t: TestStore; base: TrustStore }> {
  const t = await freshStore();
  const base = t.store;
  await base.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 10);
  const a = makeSkill(ORIGIN, url('a'), 'alpha', 10);
  await base.approve(approvalFor(a, K.fingerprint), a);
  await base.putCache(makeCacheEntry(`${ORIGIN}/llms.txt`, true, 10, 1000));
  await base.putReport(makeReport(ORIGIN, 10));
  return { t, base };
}

describe('the private windows store', () => {
  it('reads the normal pin, approvals, bytes and report, but not its probe cache', async () => {
    const { base } = await seeded();
    const p = createPrivateStore(async () => base);
    expect((await p.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect((await p.getApproval(ORIGIN, url('a')))?.keyFingerprint).toBe(K.fingerprint);
    expect(await p.getLatestSkill(ORIGIN, url('a'))).not.toBeNull();
    expect((await p.getReport(ORIGIN))?.finishedAt).toBe(10);
    // The validators of a normal visit would tie a private one to it.
    expect(await p.getCache(`${ORIGIN}/llms.txt`)).toBeNull();
    const state = await p.getOriginState(ORIGIN);
    expect(state?.cache).toEqual([]);
    expect(state?.pin?.fingerprint).toBe(K.fingerprint);
  });

  it('writes nothing to the normal store, whatever it is asked to do', async () => {
    const { t, base } = await seeded();
    const before = await dump(t);
    const p = createPrivateStore(async () => base);
    const b = makeSkill(ORIGIN, url('b'), 'beta', 20);
    const commit: ProbeCommit = {
      origin: ORIGIN,
      pin: { key: K.key, fingerprint: K.fingerprint, now: 30, expect: 'match' },
      skills: [b],
      cache: [makeCacheEntry(url('b'), true, 30, 900)],
      report: makeReport(ORIGIN, 30),
    };
    expect(await p.commitProbe(commit)).toMatchObject({ pin: { result: 'match', pin: { lastSeen: 30 } }, reportWritten: true });
    await p.approve(approvalFor(b, K.fingerprint, 31), b);
    await p.revoke(ORIGIN, url('a'));
    await p.revokeKey(ORIGIN, K2.fingerprint, 32);
    await expect(p.replacePin(ORIGIN, K.fingerprint, K2.key, K2.fingerprint, 33)).rejects.toMatchObject({ code: 'key-revoked' });
    expect(await p.replacePin(ORIGIN, K2.fingerprint, keyPair(23).key, keyPair(23).fingerprint, 33)).toBe(false);
    await p.putReport(makeReport('https://other.example', 34));
    await p.forgetPin(ORIGIN);
    await expect(p.putSettings(await base.getSettings())).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await dump(t)).toEqual(before);
    // The private view has what it did.
    expect(await p.getPin(ORIGIN)).toBeNull();
    expect(await p.getApproval(ORIGIN, url('a'))).toBeNull();
    expect((await p.getApproval(ORIGIN, url('b')))?.digestLf).toBe(b.digestLf);
    expect((await p.getKeyHistory(ORIGIN)).map((e) => [e.fingerprint, e.state])).toEqual([[K2.fingerprint, 'revoked']]);
    expect((await p.getReport(ORIGIN))?.finishedAt).toBe(30);
    // The normal view has not changed.
    expect((await base.getPin(ORIGIN))?.lastSeen).toBe(10);
    expect((await base.getApproval(ORIGIN, url('a')))?.digestLf).not.toBeUndefined();
  });

  it('keeps the rules: first sight pins, a revoked key is never pinned, an approval names the pin', async () => {
    const { store: base } = await freshStore();
    const p = createPrivateStore(async () => base);
    await p.revokeKey(ORIGIN, K.fingerprint, 1);
    expect((await p.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 2)).result).toBe('revoked');
    expect((await p.pinIfAbsent(ORIGIN, K2.key, K2.fingerprint, 3)).result).toBe('pinned');
    expect((await p.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 4)).result).toBe('revoked');
    const s = makeSkill(ORIGIN, url('a'), 'alpha', 5);
    await expect(p.approve(approvalFor(s, K.fingerprint), s)).rejects.toMatchObject({ code: 'pin-changed' });
    await p.approve(approvalFor(s, K2.fingerprint), s);
    await expect(p.replacePin(ORIGIN, K2.fingerprint, K.key, K.fingerprint, 6)).rejects.toMatchObject({ code: 'key-revoked' });
    expect(await base.getPin(ORIGIN)).toBeNull();
    expect(await base.listApprovals()).toEqual([]);
  });

  it('a commit with a pin changed meanwhile keeps the pin and leaves out the report', async () => {
    const { store: base } = await freshStore();
    const p = createPrivateStore(async () => base);
    await p.pinIfAbsent(ORIGIN, K2.key, K2.fingerprint, 1);
    const out = await p.commitProbe({ origin: ORIGIN, pin: { key: K.key, fingerprint: K.fingerprint, now: 2, expect: 'pinned' }, skills: [], cache: [], report: makeReport(ORIGIN, 2) });
    expect(out).toMatchObject({ pin: { result: 'mismatch' }, reportWritten: false });
    expect((await p.getPin(ORIGIN))?.fingerprint).toBe(K2.fingerprint);
    expect(await p.getReport(ORIGIN)).toBeNull();
  });

  it('a commit over the memory budget changes nothing; approved bytes are kept, the oldest others go', async () => {
    const { store: base } = await freshStore();
    const p = createPrivateStore(async () => base, { maxReports: 2, maxCacheEntries: 2, maxSkillBytes: 20, maxSkillBytesPerOrigin: 20 });
    const approved = makeSkill(ORIGIN, url('a'), 'aaaaaaaa', 1);
    await p.pinIfAbsent(ORIGIN, K.key, K.fingerprint, 1);
    await p.approve(approvalFor(approved, K.fingerprint), approved);
    await p.putSkill(makeSkill(ORIGIN, url('b'), 'bbbbbb', 2));
    await p.putSkill(makeSkill(ORIGIN, url('c'), 'ccccc', 3));
    await p.putSkill(makeSkill(ORIGIN, url('d'), 'dddd', 4));
    expect(await p.getLatestSkill(ORIGIN, url('b'))).toBeNull();
    const huge = makeSkill(ORIGIN, url('e'), 'x'.repeat(13), 5);
    await expect(p.commitProbe({ origin: ORIGIN, skills: [huge], cache: [makeCacheEntry(url('e'), true, 5, 9)], report: makeReport(ORIGIN, 5) })).rejects.toMatchObject({ code: 'over-budget' });
    expect(await p.getCache(url('e'))).toBeNull();
    expect(await p.getReport(ORIGIN)).toBeNull();
    expect(await p.getLatestSkill(ORIGIN, url('c'))).not.toBeNull();
    expect(await p.getLatestSkill(ORIGIN, url('d'))).not.toBeNull();
    expect(await p.getLatestSkill(ORIGIN, url('a'))).not.toBeNull();
    // Bounds on the cache and the reports: the oldest go.
    for (const i of [1, 2, 3]) await p.putCache(makeCacheEntry(`${ORIGIN}/${i}`, true, i, 100 + i));
    expect(await p.getCache(`${ORIGIN}/1`)).toBeNull();
    expect(await p.getCache(`${ORIGIN}/3`)).not.toBeNull();
    for (const o of ['https://a.example', 'https://b.example', 'https://c.example']) await p.putReport(makeReport(o, 5));
    expect(await p.getReport('https://a.example')).toBeNull();
    // Nothing of it reached the normal store.
    expect(await base.listReports()).toEqual([]);
    expect(await base.getLatestSkill(ORIGIN, url('c'))).toBeNull();
  });

  it('pages its pins (the normal ones and its own) in the order the normal store pages them', async () => {
    const { store: base } = await freshStore();
    const origins = ['https://b.example', 'http://a.example', 'https://a-b.example', 'https://A.example', 'https://z.example'];
    for (const [i, o] of origins.entries()) await base.pinIfAbsent(o, keyPair(40 + i).key, keyPair(40 + i).fingerprint, 1);
    const p = createPrivateStore(async () => base);
    await p.forgetPin('https://z.example');
    await p.pinIfAbsent('https://c.example', K.key, K.fingerprint, 2);
    const all = await p.listPins();
    expect(all.map((x) => x.origin).sort()).toEqual([...origins.filter((o) => o !== 'https://z.example'), 'https://c.example'].sort());
    for (const [offset, limit] of [
      [0, 2],
      [2, 2],
      [4, 10],
      [9, 2],
      [0, 0],
    ] as const) {
      expect(await p.pinsPage(offset, limit)).toEqual({ items: sortedPage(all, { offset, limit, filter: '' }).items, total: all.length });
    }
  });

  it('refuses to import an approval, as it refuses settings, and writes nothing', async () => {
    const { t, base } = await seeded();
    const before = await dump(t);
    const p = createPrivateStore(async () => base);
    const b = makeSkill(ORIGIN, url('b'), 'beta', 20);
    await expect(p.importApproval(approvalFor(b, K.fingerprint))).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await p.getApproval(ORIGIN, url('b'))).toBeNull();
    expect(await dump(t)).toEqual(before);
  });

  it('clear() forgets everything the private windows stored, and the normal records show again', async () => {
    const { base } = await seeded();
    const p = createPrivateStore(async () => base);
    await p.forgetPin(ORIGIN);
    await p.putReport(makeReport(ORIGIN, 50));
    expect(await p.getPin(ORIGIN)).toBeNull();
    p.clear();
    expect((await p.getPin(ORIGIN))?.fingerprint).toBe(K.fingerprint);
    expect((await p.getReport(ORIGIN))?.finishedAt).toBe(10);
  });
});
