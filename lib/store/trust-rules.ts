// The rules of the pins, the key history and the approvals (PRODUCT.md §5, §6), each a pure
// function of the records read: the answer, and the records to write or delete. The store runs them
// inside its transactions (idb-pins.ts, idb-keys.ts, idb-approvals.ts), over IndexedDB or, for the
// private windows, over the database in memory (memory-db.ts); a probe runs pinStep over the state
// it read (lib/probe/view.ts).
import type { Approval, Pin } from '../types';
import { StoreError, checkedInput } from './errors';
import { filesKeyOf, type KeyHistoryEntry, type StoredSkill } from './records';
import type { CarryOver, PinResult } from './store-api';
import { isFiniteNumber, toApproval, toStoredSkill } from './validate';

/**
 * Keys an origin offered but nobody trusted, kept per origin (the oldest go first): a site that
 * serves a new random key on every visit must not grow the history without end.
 */
export const MAX_OFFERED_KEYS_PER_ORIGIN = 16;

/** The key history's order: first seen, then fingerprint. */
export function byFirstSeen(a: KeyHistoryEntry, b: KeyHistoryEntry): number {
  return a.firstSeen - b.firstSeen || (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0);
}

function requireText(value: unknown, field: string): void {
  if (typeof value !== 'string' || value === '') throw new StoreError('invalid-input', `${field} must be a non-empty string`);
}

function requireTime(value: unknown, field: string): void {
  if (!isFiniteNumber(value)) throw new StoreError('invalid-input', `${field} must be a finite number`);
}

export function checkPinArgs(origin: string, key: string, fingerprint: string, now: number): void {
  requireText(origin, 'origin');
  requireText(key, 'key');
  requireText(fingerprint, 'fingerprint');
  requireTime(now, 'now');
}

function isCarryOver(v: unknown): v is CarryOver {
  const c = v as { url?: unknown; digestLf?: unknown; filesDigest?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.url === 'string' && typeof c.digestLf === 'string' && (c.filesDigest === undefined || typeof c.filesDigest === 'string');
}

export function checkReplaceArgs(origin: string, expected: string | null, key: string, fingerprint: string, now: number, carry: readonly CarryOver[]): void {
  checkPinArgs(origin, key, fingerprint, now);
  if (expected !== null) requireText(expected, 'expectedFingerprint');
  if (!Array.isArray(carry) || !carry.every((c) => isCarryOver(c))) {
    throw new StoreError('invalid-input', 'carry must be a list of { url, digestLf }; nothing was written');
  }
}

export interface PinStepOutcome {
  result: PinResult;
  /** The pin to write, when it changes (first sight, a later lastSeen). */
  pin: Pin | null;
  /** History entries to write. */
  keys: KeyHistoryEntry[];
  /** A new `offered` entry was written: the origin's offered keys are bounded again (excessOffered). */
  offered: boolean;
}

/**
 * pinIfAbsent's decision (trust on first use, a revoked key never pinned or refreshed) from the
 * stored pin and the key's history entry.
 */
export function pinStep(origin: string, key: string, fingerprint: string, now: number, stored: Pin | null, seen: KeyHistoryEntry | null): PinStepOutcome {
  const none = { pin: null, keys: [], offered: false };
  if (seen?.state === 'revoked') return { result: { result: 'revoked', pin: stored }, ...none };
  if (!stored) {
    const pin: Pin = { origin, key, fingerprint, firstSeen: now, lastSeen: now };
    const entry: KeyHistoryEntry = { origin, fingerprint, key, firstSeen: seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null };
    return { result: { result: 'pinned', pin }, pin, keys: [entry], offered: false };
  }
  if (stored.fingerprint !== fingerprint || stored.key !== key) {
    const result: PinResult = { result: 'mismatch', pin: stored };
    if (!seen) return { result, pin: null, keys: [{ origin, fingerprint, key, firstSeen: now, lastSeen: now, state: 'offered', revokedAt: null }], offered: true };
    return { result, pin: null, keys: now > seen.lastSeen ? [{ ...seen, key: seen.key ?? key, lastSeen: now }] : [], offered: false };
  }
  const keys: KeyHistoryEntry[] = [];
  if (!seen) keys.push({ origin, fingerprint, key, firstSeen: stored.firstSeen, lastSeen: Math.max(stored.lastSeen, now), state: 'pinned', revokedAt: null });
  else if (now > seen.lastSeen) keys.push({ ...seen, lastSeen: now });
  if (now <= stored.lastSeen) return { result: { result: 'match', pin: stored }, pin: null, keys, offered: false };
  const refreshed: Pin = { ...stored, lastSeen: now };
  return { result: { result: 'match', pin: refreshed }, pin: refreshed, keys, offered: false };
}

/** The `offered` entries to delete so that at most MAX_OFFERED_KEYS_PER_ORIGIN are kept: the least recently seen, never `keep`. */
export function excessOffered(entries: Iterable<KeyHistoryEntry>, keep: string): KeyHistoryEntry[] {
  const offered = [...entries].filter((e) => e.state === 'offered' && e.fingerprint !== keep).sort((a, b) => a.lastSeen - b.lastSeen);
  return offered.slice(0, Math.max(0, offered.length + 1 - MAX_OFFERED_KEYS_PER_ORIGIN));
}

/** What trusting a new key writes: the pin, history entries, and the approvals kept (every other approval of the origin is deleted). */
export interface ReplaceStep {
  pin: Pin;
  keys: KeyHistoryEntry[];
  approvals: Approval[];
}

/** The origin's records replacePin decides over. */
export interface ReplaceInput {
  pin: Pin | null;
  /** The history entry of the key to trust. */
  seen: KeyHistoryEntry | null;
  /** The history entry of the key pinned now. */
  old: KeyHistoryEntry | null;
  approvals: readonly Approval[];
}

/**
 * replacePin's decision: false when the stored pin is not `expected`, true when the key is pinned
 * already (nothing changes, nothing is suspended), else the records to write. A revoked key is
 * refused (StoreError `key-revoked`). The old key becomes `replaced` unless it was revoked; an
 * approval bound to the old key (or to none) whose bytes are unchanged (`carry`) is re-bound to
 * the new key, the others need a new decision.
 */
export function replaceStep(origin: string, expected: string | null, key: string, fingerprint: string, now: number, carry: readonly CarryOver[], s: ReplaceInput): boolean | ReplaceStep {
  if (s.seen?.state === 'revoked') {
    throw new StoreError('key-revoked', `${fingerprint} was revoked for ${origin}; it is never trusted again. Nothing was written.`, { store: 'keys', key: `${origin} ${fingerprint}` });
  }
  const current = s.pin;
  if ((current?.fingerprint ?? null) !== expected) return false;
  if (current && current.fingerprint === fingerprint && current.key === key) return true;
  const keys: KeyHistoryEntry[] = [{ origin, fingerprint, key, firstSeen: s.seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null }];
  const old = s.old;
  if (current && old?.state !== 'revoked') {
    const firstSeen = old ? Math.min(old.firstSeen, current.firstSeen) : current.firstSeen;
    const lastSeen = old ? Math.max(old.lastSeen, current.lastSeen) : current.lastSeen;
    keys.push({ origin, fingerprint: current.fingerprint, key: current.key, firstSeen, lastSeen, state: 'replaced', revokedAt: null });
  }
  const unchanged = new Map(carry.map((c) => [c.url, c]));
  // The same content: the SKILL.md and, when the caller names it, an archive's file set (PRODUCT.md §9.2).
  const same = (a: Approval): boolean => {
    const c = unchanged.get(a.url);
    if (!c || c.digestLf.toLowerCase() !== a.digestLf.toLowerCase()) return false;
    return c.filesDigest === undefined || c.filesDigest.toLowerCase() === (a.archive?.filesDigest ?? '');
  };
  const approvals = s.approvals
    .filter((a) => (a.keyFingerprint === null || a.keyFingerprint === current?.fingerprint) && same(a))
    .map((a) => ({ ...a, keyFingerprint: a.keyFingerprint === null ? null : fingerprint }));
  return { pin: { origin, key, fingerprint, firstSeen: now, lastSeen: now }, keys, approvals };
}

/** The history entries "forget" deletes: every one but the revoked keys, which outlive it. */
export function forgotten(entries: Iterable<KeyHistoryEntry>): KeyHistoryEntry[] {
  return [...entries].filter((e) => e.state !== 'revoked');
}

/** revokeKey's entry for `fingerprint` (the entry it had, if any, keeps its key and times); null: revoked already. */
export function revokedEntry(origin: string, fingerprint: string, entry: KeyHistoryEntry | null, at: number): KeyHistoryEntry | null {
  if (entry?.state === 'revoked') return null;
  return { origin, fingerprint, key: entry?.key ?? null, firstSeen: entry?.firstSeen ?? at, lastSeen: entry?.lastSeen ?? at, state: 'revoked', revokedAt: at };
}

export function checkRevokeArgs(origin: string, fingerprint: string, at: number): void {
  requireText(origin, 'origin');
  requireText(fingerprint, 'fingerprint');
  requireTime(at, 'at');
}

/** The approval and the bytes it binds, checked: both well formed, and the approval names exactly these bytes. */
export function checkedApproval(approval: Approval, skill: StoredSkill): { a: Approval; s: StoredSkill } {
  const a = checkedInput(toApproval(approval), 'approval does not have the shape of an Approval; nothing was written');
  const s = checkedInput(toStoredSkill(skill), 'skill does not have the shape of a StoredSkill; nothing was written');
  if (s.origin !== a.origin || s.url !== a.url || s.digestLf !== a.digestLf || s.digestRaw !== a.digestRaw) {
    throw new StoreError('invalid-input', 'the approval does not bind these bytes (origin, url or digest differ); nothing was written');
  }
  if ((a.archive?.filesDigest ?? '') !== filesKeyOf(s) || (s.archive !== undefined && (a.archive === undefined || a.archive.sha256 !== s.archive.sha256))) {
    throw new StoreError('invalid-input', "the approval does not bind these bytes (the archive's files differ, or an archive's files are not bound); nothing was written");
  }
  return { a, s };
}

/**
 * The `pin-changed` refusal of an approval, or null when it names no key, or names the
 * administrator's key for the origin (`policyKey`, which stands for the pin while the policy names
 * it), or else the key pinned now.
 */
export function bindingError(a: Approval, policyKey: string | null, pin: Pin | null): StoreError | null {
  if (a.keyFingerprint === null || a.keyFingerprint === (policyKey ?? pin?.fingerprint)) return null;
  if (policyKey !== null) return new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but the administrator pinned ${policyKey} for ${a.origin}; nothing was written`);
  return new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but ${a.origin} has ${pin ? `key ${pin.fingerprint}` : 'no readable pin'}; nothing was written`);
}

/** An imported approval against the one stored for its URL: the same one binds the same content (the SKILL.md, an archive's files) to the same key. */
export function sameApproval(existing: Approval, a: Approval): boolean {
  const sameFiles = (existing.archive?.filesDigest ?? null) === (a.archive?.filesDigest ?? null);
  return existing.digestLf === a.digestLf && existing.keyFingerprint === a.keyFingerprint && sameFiles;
}
