// The pins of the trust store (PRODUCT.md §5): trust on first use as a compare-and-set, the
// user's decision to trust another key (which carries over the approvals of unchanged bytes),
// and "forget". Each keeps the key history (idb-keys.ts) in the same transaction.
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { Approval, Pin } from '../types';
import { StoreError } from './errors';
import { approvalKeyOf, requireText, requireTime, type StoreCore } from './idb-core';
import { boundOffered, historyEntry } from './idb-keys';
import { pinStep } from './pin-step';
import type { SkillpinDB } from './schema';
import type { CarryOver, PinResult } from './store-api';
import { toApproval, toKeyHistoryEntry, toPin } from './validate';

function isCarryOver(v: unknown): v is CarryOver {
  const c = v as { url?: unknown; digestLf?: unknown; filesDigest?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.url === 'string' && typeof c.digestLf === 'string' && (c.filesDigest === undefined || typeof c.filesDigest === 'string');
}

export async function getPin(core: StoreCore, origin: string): Promise<Pin | null> {
  const raw: unknown = await core.read(['pins'], (tx) => tx.objectStore('pins').get(origin));
  return core.checked('pins', origin, raw, toPin);
}

export async function pinIfAbsent(core: StoreCore, origin: string, key: string, fingerprint: string, now: number): Promise<PinResult> {
  checkPinArgs(origin, key, fingerprint, now);
  return core.write(['pins', 'keys'], (tx) => pinInTx(core, tx.objectStore('pins'), tx.objectStore('keys'), origin, key, fingerprint, now));
}

export function checkPinArgs(origin: string, key: string, fingerprint: string, now: number): void {
  requireText(origin, 'origin');
  requireText(key, 'key');
  requireText(fingerprint, 'fingerprint');
  requireTime(now, 'now');
}

type PinsStore = IDBPObjectStore<SkillpinDB, ArrayLike<StoreNames<SkillpinDB>>, 'pins', 'readwrite'>;
type KeysStore = IDBPObjectStore<SkillpinDB, ArrayLike<StoreNames<SkillpinDB>>, 'keys', 'readwrite'>;

/** pinIfAbsent's compare-and-set inside the caller's readwrite transaction (a probe's commit: idb-commit.ts). */
export async function pinInTx(core: StoreCore, pins: PinsStore, keys: KeysStore, origin: string, key: string, fingerprint: string, now: number): Promise<PinResult> {
  const seen = await historyEntry(core, keys, origin, fingerprint);
  const raw: unknown = await pins.get(origin);
  const stored = raw === undefined ? null : toPin(raw);
  // An unreadable pin is neither absent nor comparable: refuse, and keep it (a revoked key is refused first).
  if (raw !== undefined && !stored && seen?.state !== 'revoked') throw core.corrupt('pins', origin);
  const step = pinStep(origin, key, fingerprint, now, stored, seen);
  if (step.pin) await pins.put(step.pin);
  for (const entry of step.keys) await keys.put(entry);
  if (step.offered) await boundOffered(keys, origin, fingerprint);
  return step.result;
}

export async function replacePin(
  core: StoreCore,
  origin: string,
  expectedFingerprint: string | null,
  key: string,
  fingerprint: string,
  now: number,
  carry: readonly CarryOver[] = [],
): Promise<boolean> {
  requireText(origin, 'origin');
  requireText(key, 'key');
  requireText(fingerprint, 'fingerprint');
  requireTime(now, 'now');
  if (expectedFingerprint !== null) requireText(expectedFingerprint, 'expectedFingerprint');
  if (!Array.isArray(carry) || !carry.every((c) => isCarryOver(c))) {
    throw new StoreError('invalid-input', 'carry must be a list of { url, digestLf }; nothing was written');
  }
  return core.write(['pins', 'approvals', 'keys'], async (tx) => {
    const pins = tx.objectStore('pins');
    const keys = tx.objectStore('keys');
    const seen = await historyEntry(core, keys, origin, fingerprint);
    if (seen?.state === 'revoked') {
      throw new StoreError('key-revoked', `${fingerprint} was revoked for ${origin}; it is never trusted again. Nothing was written.`, {
        store: 'keys',
        key: `${origin} ${fingerprint}`,
      });
    }
    const raw: unknown = await pins.get(origin);
    let current: Pin | null = null;
    if (raw !== undefined) {
      current = toPin(raw);
      if (!current) {
        core.corrupt('pins', origin);
        return false;
      }
    }
    if ((current?.fingerprint ?? null) !== expectedFingerprint) return false;
    // Trusting the key that is already pinned changes nothing and suspends nothing.
    if (current && current.fingerprint === fingerprint && current.key === key) return true;
    await pins.put({ origin, key, fingerprint, firstSeen: now, lastSeen: now });
    await keys.put({ origin, fingerprint, key, firstSeen: seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null });
    if (current) {
      const old = toKeyHistoryEntry(await keys.get([origin, current.fingerprint]));
      // A revoked old key stays revoked; otherwise it is now a replaced key.
      if (!old || old.state !== 'revoked') {
        await keys.put({
          origin,
          fingerprint: current.fingerprint,
          key: current.key,
          firstSeen: old ? Math.min(old.firstSeen, current.firstSeen) : current.firstSeen,
          lastSeen: old ? Math.max(old.lastSeen, current.lastSeen) : current.lastSeen,
          state: 'replaced',
          revokedAt: null,
        });
      }
    }
    // Approvals whose bytes are unchanged carry over to the new key; the rest need a decision.
    const unchanged = new Map(carry.map((c) => [c.url, c]));
    // The same content: the SKILL.md and, when the caller names it, an archive's file set (PRODUCT.md §9.2).
    const same = (a: Approval): boolean => {
      const c = unchanged.get(a.url);
      if (!c || c.digestLf.toLowerCase() !== a.digestLf.toLowerCase()) return false;
      return c.filesDigest === undefined || c.filesDigest.toLowerCase() === (a.archive?.filesDigest ?? '');
    };
    const approvals = tx.objectStore('approvals');
    for (const rawApproval of await approvals.index('by-origin').getAll(origin)) {
      const a = toApproval(rawApproval);
      const boundToOld = a !== null && (a.keyFingerprint === null || a.keyFingerprint === current?.fingerprint);
      if (a && boundToOld && same(a)) {
        await approvals.put({ ...a, keyFingerprint: a.keyFingerprint === null ? null : fingerprint });
      } else {
        await approvals.delete(approvalKeyOf(rawApproval) as [string, string]);
      }
    }
    return true;
  });
}

export async function forgetPin(core: StoreCore, origin: string): Promise<void> {
  await core.write(['pins', 'keys'], async (tx) => {
    await tx.objectStore('pins').delete(origin);
    const keys = tx.objectStore('keys');
    for (const raw of await keys.index('by-origin').getAll(origin)) {
      const entry = toKeyHistoryEntry(raw);
      // Revocations outlive forget (PRODUCT.md §5); an unreadable entry might be one: keep it.
      if (entry && entry.state !== 'revoked') await keys.delete([origin, entry.fingerprint]);
    }
  });
}

/**
 * `limit` pins from `offset` in key order (the origin, code-unit order), and how many are stored:
 * read through the store's key with a cursor, never every pin. An unreadable pin is skipped and
 * reported, as by listPins.
 */
export async function pinsPage(core: StoreCore, offset: number, limit: number): Promise<{ items: Pin[]; total: number }> {
  return core.read(['pins'], async (tx) => {
    const store = tx.objectStore('pins');
    const total = await store.count();
    const items: Pin[] = [];
    if (limit <= 0 || offset >= total) return { items, total };
    let cursor = await store.openCursor();
    if (cursor && offset > 0) cursor = await cursor.advance(offset);
    while (cursor && items.length < limit) {
      const pin = core.checked('pins', cursor.key, cursor.value, toPin);
      if (pin) items.push(pin);
      cursor = await cursor.continue();
    }
    return { items, total };
  });
}

export async function listPins(core: StoreCore): Promise<Pin[]> {
  const raws: unknown[] = await core.read(['pins'], (tx) => tx.objectStore('pins').getAll());
  return core.checkedAll('pins', raws, toPin, (r) => (r as { origin?: unknown } | null)?.origin);
}
