// The pins of the trust store (PRODUCT.md §5): trust on first use as a compare-and-set, the
// user's decision to trust another key (which carries over the approvals of unchanged bytes),
// and "forget". Each keeps the key history (idb-keys.ts) in the same transaction; the rules are
// trust-rules.ts.
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { Approval, Pin } from '../types';
import { keyOf, type StoreCore } from './idb-core';
import { boundOffered, historyEntry, originEntries, type KeysStore } from './idb-keys';
import type { SkillpinDB } from './schema';
import type { CarryOver, PinResult } from './store-api';
import { checkPinArgs, checkReplaceArgs, forgotten, pinStep, replaceStep } from './trust-rules';
import { toApproval, toKeyHistoryEntry, toPin } from './validate';

export async function pinIfAbsent(core: StoreCore, origin: string, key: string, fingerprint: string, now: number): Promise<PinResult> {
  checkPinArgs(origin, key, fingerprint, now);
  return core.write(['pins', 'keys'], (tx) => pinInTx(core, tx.objectStore('pins'), tx.objectStore('keys'), origin, key, fingerprint, now));
}

type PinsStore = IDBPObjectStore<SkillpinDB, ArrayLike<StoreNames<SkillpinDB>>, 'pins', 'readwrite'>;

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
  checkReplaceArgs(origin, expectedFingerprint, key, fingerprint, now, carry);
  return core.write(['pins', 'approvals', 'keys'], async (tx) => {
    const pins = tx.objectStore('pins');
    const keys = tx.objectStore('keys');
    const approvals = tx.objectStore('approvals');
    const seen = await historyEntry(core, keys, origin, fingerprint);
    const raw: unknown = await pins.get(origin);
    const pin = raw === undefined ? null : toPin(raw);
    // An unreadable pin is not the one expected: keep it (a revoked key is refused first).
    if (raw !== undefined && !pin && seen?.state !== 'revoked') {
      core.corrupt('pins', origin);
      return false;
    }
    const old = pin ? toKeyHistoryEntry(await keys.get([origin, pin.fingerprint])) : null;
    const raws: unknown[] = await approvals.index('by-origin').getAll(origin);
    const readable = raws.map((r) => toApproval(r)).filter((a): a is Approval => a !== null);
    const step = replaceStep(origin, expectedFingerprint, key, fingerprint, now, carry, { pin, seen, old, approvals: readable });
    if (typeof step === 'boolean') return step;
    await pins.put(step.pin);
    for (const entry of step.keys) await keys.put(entry);
    // Every other approval of the origin, an unreadable one too, needs a new decision.
    const kept = new Set(step.approvals.map((a) => a.url));
    for (const r of raws) {
      const k = keyOf('approvals', r) as [string, string];
      if (!kept.has(k[1])) await approvals.delete(k);
    }
    for (const a of step.approvals) await approvals.put(a);
    return true;
  });
}

export async function forgetPin(core: StoreCore, origin: string): Promise<void> {
  await core.write(['pins', 'keys'], async (tx) => {
    await tx.objectStore('pins').delete(origin);
    const keys = tx.objectStore('keys');
    // An unreadable entry might be a revocation: it is kept.
    for (const entry of forgotten(await originEntries(keys, origin))) await keys.delete([origin, entry.fingerprint]);
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
      const pin = core.checked('pins', cursor.key, cursor.value);
      if (pin) items.push(pin);
      cursor = await cursor.continue();
    }
    return { items, total };
  });
}
