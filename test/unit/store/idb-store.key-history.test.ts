// The trust lifecycle in the store (PRODUCT.md §5): the key history of an origin, revoked keys
// (never pinned again, outliving forget), and approvals carried over to a newly trusted key.
import { describe, expect, it } from 'vitest';
import { MAX_OFFERED_KEYS_PER_ORIGIN } from '../../../lib/store/trust-rules';
import { approvalFor, freshStore, keyPair, makeSkill, plant } from './helpers';

const ORIGIN = 'https://docs.example.com';
const OTHER = 'https://other.example.com';
const A = keyPair(1);
const B = keyPair(2);
const C = keyPair(3);

describe('key history', () => {
  it('records the first key as pinned and refreshes its last seen on a match', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 250);
    expect(await store.getKeyHistory(ORIGIN)).toEqual([{ origin: ORIGIN, fingerprint: A.fingerprint, key: A.key, firstSeen: 100, lastSeen: 250, state: 'pinned', revokedAt: null }]);
  });

  it('records a different key the origin offers as offered, without touching the pin', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const r = await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 200);
    expect(r.result).toBe('mismatch');
    await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 300);
    expect(await store.getPin(ORIGIN)).toMatchObject({ fingerprint: A.fingerprint, lastSeen: 100 });
    const history = await store.getKeyHistory(ORIGIN);
    expect(history.map((e) => [e.fingerprint, e.state, e.firstSeen, e.lastSeen])).toEqual([
      [A.fingerprint, 'pinned', 100, 100],
      [B.fingerprint, 'offered', 200, 300],
    ]);
  });

  it('keeps a bounded number of keys that were only offered (the least recently seen go)', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 1);
    for (let i = 0; i < MAX_OFFERED_KEYS_PER_ORIGIN + 5; i++) {
      const k = keyPair(100 + i);
      await store.pinIfAbsent(ORIGIN, k.key, k.fingerprint, 10 + i);
    }
    const history = await store.getKeyHistory(ORIGIN);
    const offered = history.filter((e) => e.state === 'offered');
    expect(offered).toHaveLength(MAX_OFFERED_KEYS_PER_ORIGIN);
    expect(offered[0]?.fingerprint).toBe(keyPair(105).fingerprint);
    expect(history.find((e) => e.state === 'pinned')?.fingerprint).toBe(A.fingerprint);
  });

  it('trusting a new key marks the old one replaced and the new one pinned, keeping when it was first offered', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 150);
    await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 200);
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300)).toBe(true);
    const history = await store.getKeyHistory(ORIGIN);
    expect(history.map((e) => [e.fingerprint, e.state, e.firstSeen, e.lastSeen])).toEqual([
      [A.fingerprint, 'replaced', 100, 150],
      [B.fingerprint, 'pinned', 200, 300],
    ]);
    expect(await store.listKeyHistory()).toEqual(history);
  });

  it('an unreadable history record is skipped, reported, and kept', async () => {
    const { store, factory, name, errors } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await plant(factory, name, 'keys', { origin: ORIGIN, fingerprint: B.fingerprint, state: 'trusted-forever' });
    expect((await store.getKeyHistory(ORIGIN)).map((e) => e.fingerprint)).toEqual([A.fingerprint]);
    expect(errors.map((e) => e.code)).toEqual(['corrupt-record']);
    // An unreadable entry for the offered key may be a revocation: it is not pinned over.
    await store.forgetPin(ORIGIN);
    await expect(store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 200)).rejects.toMatchObject({ code: 'corrupt-record' });
    expect(await store.getPin(ORIGIN)).toBeNull();
  });
});

describe('revoked keys', () => {
  it('a revoked key is never pinned on first use, and nothing is written', async () => {
    const { store } = await freshStore();
    expect(await store.revokeKey(ORIGIN, A.fingerprint, 50)).toBe('revoked');
    expect(await store.revokeKey(ORIGIN, A.fingerprint, 60)).toBe('unchanged');
    expect(await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100)).toEqual({ result: 'revoked', pin: null });
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect(await store.getKeyHistory(ORIGIN)).toEqual([{ origin: ORIGIN, fingerprint: A.fingerprint, key: null, firstSeen: 50, lastSeen: 50, state: 'revoked', revokedAt: 50 }]);
    // Only for that origin: another origin may pin the same key.
    expect((await store.pinIfAbsent(OTHER, A.key, A.fingerprint, 100)).result).toBe('pinned');
  });

  it('revoking the pinned key keeps the pin (a different key later is a change, not a first use) and refuses it on every visit', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await store.revokeKey(ORIGIN, A.fingerprint, 200);
    const r = await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 300);
    expect(r).toEqual({ result: 'revoked', pin: { origin: ORIGIN, key: A.key, fingerprint: A.fingerprint, firstSeen: 100, lastSeen: 100 } });
    expect((await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 400)).result).toBe('mismatch');
    expect(await store.getKeyHistory(ORIGIN)).toContainEqual({
      origin: ORIGIN,
      fingerprint: A.fingerprint,
      key: A.key,
      firstSeen: 100,
      lastSeen: 100,
      state: 'revoked',
      revokedAt: 200,
    });
  });

  it('revocations survive forget; the rest of the history does not', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 150);
    await store.revokeKey(ORIGIN, B.fingerprint, 160);
    await store.pinIfAbsent(OTHER, C.key, C.fingerprint, 170);
    await store.forgetPin(ORIGIN);
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect((await store.getKeyHistory(ORIGIN)).map((e) => [e.fingerprint, e.state])).toEqual([[B.fingerprint, 'revoked']]);
    expect(await store.getKeyHistory(OTHER)).toHaveLength(1);
    // After forget the revoked key is still refused; a key never revoked is pinned on first use.
    expect((await store.pinIfAbsent(ORIGIN, B.key, B.fingerprint, 200)).result).toBe('revoked');
    expect(await store.getPin(ORIGIN)).toBeNull();
    expect((await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 300)).result).toBe('pinned');
  });

  it('trusting a revoked key is refused with key-revoked and writes nothing', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const skill = makeSkill(ORIGIN, `${ORIGIN}/s/SKILL.md`, 'x', 110);
    await store.approve(approvalFor(skill, A.fingerprint), skill);
    await store.revokeKey(ORIGIN, B.fingerprint, 120);
    await expect(store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 200, [{ url: skill.url, digestLf: skill.digestLf }])).rejects.toMatchObject({
      code: 'key-revoked',
    });
    expect(await store.getPin(ORIGIN)).toMatchObject({ fingerprint: A.fingerprint });
    expect(await store.getApprovals(ORIGIN)).toHaveLength(1);
  });
});

describe('trusting a new key carries over unchanged approvals', () => {
  it('re-binds approvals whose bytes are unchanged and drops the others, in one decision', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const same = makeSkill(ORIGIN, `${ORIGIN}/same/SKILL.md`, 'same', 110);
    const alsoSame = makeSkill(ORIGIN, `${ORIGIN}/also/SKILL.md`, 'also', 110);
    const changed = makeSkill(ORIGIN, `${ORIGIN}/changed/SKILL.md`, 'old text', 110);
    const unsigned = makeSkill(ORIGIN, `${ORIGIN}/unsigned/SKILL.md`, 'plain', 110);
    for (const [s, fp] of [
      [same, A.fingerprint],
      [alsoSame, A.fingerprint],
      [changed, A.fingerprint],
      [unsigned, null],
    ] as const) {
      await store.approve(approvalFor(s, fp), s);
    }
    const changedNow = makeSkill(ORIGIN, changed.url, 'new text', 200);
    const carry = [same, alsoSame, changedNow, unsigned].map((s) => ({ url: s.url, digestLf: s.digestLf }));
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300, carry)).toBe(true);

    const approvals = new Map((await store.getApprovals(ORIGIN)).map((a) => [a.url, a]));
    expect([...approvals.keys()].sort()).toEqual([alsoSame.url, same.url, unsigned.url].sort());
    expect(approvals.get(same.url)).toEqual({ ...approvalFor(same, A.fingerprint), keyFingerprint: B.fingerprint });
    expect(approvals.get(alsoSame.url)?.keyFingerprint).toBe(B.fingerprint);
    // An approval made while unsigned stays unsigned: the status decides whether it still holds.
    expect(approvals.get(unsigned.url)?.keyFingerprint).toBeNull();
    expect(approvals.has(changed.url)).toBe(false);
  });

  it('without carry-over information every approval needs a new decision (as before)', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const s = makeSkill(ORIGIN, `${ORIGIN}/s/SKILL.md`, 'x', 110);
    await store.approve(approvalFor(s, A.fingerprint), s);
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300)).toBe(true);
    expect(await store.getApprovals(ORIGIN)).toEqual([]);
  });

  it('an approval bound to a key older than the pin does not come back', async () => {
    const { store, factory, name } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const s = makeSkill(ORIGIN, `${ORIGIN}/s/SKILL.md`, 'x', 110);
    await plant(factory, name, 'approvals', approvalFor(s, C.fingerprint));
    expect(await store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300, [{ url: s.url, digestLf: s.digestLf }])).toBe(true);
    expect(await store.getApprovals(ORIGIN)).toEqual([]);
  });

  it('a stale expected fingerprint writes nothing, approvals included', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    const s = makeSkill(ORIGIN, `${ORIGIN}/s/SKILL.md`, 'x', 110);
    await store.approve(approvalFor(s, A.fingerprint), s);
    expect(await store.replacePin(ORIGIN, C.fingerprint, B.key, B.fingerprint, 300, [{ url: s.url, digestLf: s.digestLf }])).toBe(false);
    expect((await store.getApprovals(ORIGIN))[0]?.keyFingerprint).toBe(A.fingerprint);
    expect((await store.getKeyHistory(ORIGIN)).map((e) => e.state)).toEqual(['pinned']);
  });

  it('refuses a malformed carry-over list before writing', async () => {
    const { store } = await freshStore();
    await store.pinIfAbsent(ORIGIN, A.key, A.fingerprint, 100);
    await expect(store.replacePin(ORIGIN, A.fingerprint, B.key, B.fingerprint, 300, [{ url: 1 } as never])).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getPin(ORIGIN)).toMatchObject({ fingerprint: A.fingerprint });
  });
});
