// The rules both trust stores run (lib/store/trust-rules.ts), as pure functions of the records
// read: trusting a new key, forget, revoking a key, an approval's binding, the offered-keys bound.
import { describe, expect, it } from 'vitest';
import type { KeyHistoryEntry } from '../../../lib/store/records';
import { bindingError, excessOffered, forgotten, MAX_OFFERED_KEYS_PER_ORIGIN, replaceStep, revokedEntry } from '../../../lib/store/trust-rules';
import type { Approval, Pin } from '../../../lib/types';
import { approvalFor, keyPair, makeSkill } from './helpers';

const ORIGIN = 'https://rules.example';
const A = keyPair(51);
const B = keyPair(52);
const url = (n: string): string => `${ORIGIN}/skills/${n}/SKILL.md`;
const pinOf = (k: { key: string; fingerprint: string }, at: number): Pin => ({ origin: ORIGIN, key: k.key, fingerprint: k.fingerprint, firstSeen: at, lastSeen: at });
function entry(fingerprint: string, state: KeyHistoryEntry['state'], at: number): KeyHistoryEntry {
  return { origin: ORIGIN, fingerprint, key: null, firstSeen: at, lastSeen: at, state, revokedAt: state === 'revoked' ? at : null };
}

describe('replaceStep', () => {
  const alpha = makeSkill(ORIGIN, url('alpha'), 'alpha', 1);
  const beta = makeSkill(ORIGIN, url('beta'), 'beta', 1);
  const approvals: Approval[] = [approvalFor(alpha, A.fingerprint), approvalFor(beta, A.fingerprint)];
  const stored = { pin: pinOf(A, 1), seen: null, old: entry(A.fingerprint, 'pinned', 1), approvals };

  it('writes nothing unless the stored pin is the one expected, and nothing when the key is pinned already', () => {
    expect(replaceStep(ORIGIN, B.fingerprint, B.key, B.fingerprint, 5, [], stored)).toBe(false);
    expect(replaceStep(ORIGIN, null, B.key, B.fingerprint, 5, [], stored)).toBe(false);
    expect(replaceStep(ORIGIN, A.fingerprint, A.key, A.fingerprint, 5, [], stored)).toBe(true);
  });

  it('refuses a revoked key', () => {
    let thrown: unknown = null;
    try {
      replaceStep(ORIGIN, A.fingerprint, B.key, B.fingerprint, 5, [], { ...stored, seen: entry(B.fingerprint, 'revoked', 2) });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ code: 'key-revoked', message: `${B.fingerprint} was revoked for ${ORIGIN}; it is never trusted again. Nothing was written.` });
  });

  it('pins the new key, replaces the old one unless it is revoked, and keeps only the approvals of unchanged bytes', () => {
    const step = replaceStep(ORIGIN, A.fingerprint, B.key, B.fingerprint, 5, [{ url: url('alpha'), digestLf: alpha.digestLf.toUpperCase() }], stored);
    if (typeof step === 'boolean') throw new Error('no step');
    expect(step.pin).toEqual(pinOf(B, 5));
    expect(step.keys.map((k) => [k.fingerprint, k.state])).toEqual([
      [B.fingerprint, 'pinned'],
      [A.fingerprint, 'replaced'],
    ]);
    expect(step.approvals.map((a) => [a.url, a.keyFingerprint])).toEqual([[url('alpha'), B.fingerprint]]);
    const revokedOld = replaceStep(ORIGIN, A.fingerprint, B.key, B.fingerprint, 5, [], { ...stored, old: entry(A.fingerprint, 'revoked', 3) });
    if (typeof revokedOld === 'boolean') throw new Error('no step');
    expect(revokedOld.keys.map((k) => k.state)).toEqual(['pinned']);
    expect(revokedOld.approvals).toEqual([]);
  });

  it("an archive's approval is carried only with the same files", () => {
    const archived: Approval = { ...approvalFor(alpha, A.fingerprint), archive: { sha256: 'a'.repeat(64), filesDigest: 'f'.repeat(64), files: [] } };
    const carry = (filesDigest: string) => {
      const c = [{ url: url('alpha'), digestLf: alpha.digestLf, filesDigest }];
      return replaceStep(ORIGIN, A.fingerprint, B.key, B.fingerprint, 5, c, { ...stored, approvals: [archived] });
    };
    expect((carry('f'.repeat(64)) as { approvals: Approval[] }).approvals).toHaveLength(1);
    expect((carry('e'.repeat(64)) as { approvals: Approval[] }).approvals).toHaveLength(0);
  });
});

describe('the key history rules', () => {
  it('forget deletes every entry but the revoked ones; a revoked key is revoked once', () => {
    const entries = [entry('p', 'pinned', 1), entry('o', 'offered', 2), entry('r', 'revoked', 3), entry('x', 'replaced', 4)];
    expect(forgotten(entries).map((e) => e.fingerprint)).toEqual(['p', 'o', 'x']);
    expect(revokedEntry(ORIGIN, 'r', entries[2] ?? null, 9)).toBeNull();
    expect(revokedEntry(ORIGIN, 'o', entries[1] ?? null, 9)).toEqual({ ...entry('o', 'offered', 2), state: 'revoked', revokedAt: 9 });
    expect(revokedEntry(ORIGIN, 'n', null, 9)).toEqual(entry('n', 'revoked', 9));
  });

  it('bounds the offered keys: the least recently seen go, never the one just offered', () => {
    const offered = Array.from({ length: MAX_OFFERED_KEYS_PER_ORIGIN + 2 }, (_, i) => entry(`k${i}`, 'offered', 100 - i));
    expect(excessOffered([...offered, entry('pinned', 'pinned', 0)], 'k17').map((e) => e.fingerprint)).toEqual(['k16', 'k15']);
  });
});

describe('bindingError', () => {
  const a = approvalFor(makeSkill(ORIGIN, url('alpha'), 'alpha', 1), A.fingerprint);

  it('accepts an approval naming no key, the pinned key, or the key the administrator pinned', () => {
    expect(bindingError({ ...a, keyFingerprint: null }, null, null)).toBeNull();
    expect(bindingError(a, null, pinOf(A, 1))).toBeNull();
    expect(bindingError(a, A.fingerprint, pinOf(B, 1))).toBeNull();
  });

  it('refuses any other with pin-changed', () => {
    expect(bindingError(a, null, pinOf(B, 1))).toMatchObject({ code: 'pin-changed', message: expect.stringContaining(`has key ${B.fingerprint}`) });
    expect(bindingError(a, null, null)).toMatchObject({ code: 'pin-changed', message: expect.stringContaining('no readable pin') });
    expect(bindingError(a, B.fingerprint, pinOf(A, 1))).toMatchObject({ code: 'pin-changed', message: expect.stringContaining(`administrator pinned ${B.fingerprint}`) });
  });
});
