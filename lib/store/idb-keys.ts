// The key history of the trust store (PRODUCT.md §5): every fingerprint an origin has shown and what
// became of it. Revocations are written here and outlive "forget"; the pin operations
// (idb-pins.ts) read and update the same records in their own transactions. The rules are
// trust-rules.ts.
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { KeyHistoryEntry } from './records';
import type { StoreCore } from './idb-core';
import type { SkillpinDB } from './schema';
import type { RevokeResult } from './store-api';
import { byFirstSeen, checkRevokeArgs, excessOffered, revokedEntry } from './trust-rules';
import { toKeyHistoryEntry } from './validate';

/** The key history in a readwrite transaction. */
export type KeysStore = IDBPObjectStore<SkillpinDB, ArrayLike<StoreNames<SkillpinDB>>, 'keys', 'readwrite'>;

/** The history entry of (origin, fingerprint); an unreadable one may be a revocation: refuse. */
export async function historyEntry(core: StoreCore, keys: KeysStore, origin: string, fingerprint: string): Promise<KeyHistoryEntry | null> {
  const raw: unknown = await keys.get([origin, fingerprint]);
  if (raw === undefined) return null;
  const entry = toKeyHistoryEntry(raw);
  if (!entry) throw core.corrupt('keys', [origin, fingerprint]);
  return entry;
}

/** The origin's readable history entries (an unreadable one is kept as it is). */
export async function originEntries(keys: KeysStore, origin: string): Promise<KeyHistoryEntry[]> {
  return (await keys.index('by-origin').getAll(origin)).map((raw: unknown) => toKeyHistoryEntry(raw)).filter((e): e is KeyHistoryEntry => e !== null);
}

/** Keeps at most MAX_OFFERED_KEYS_PER_ORIGIN `offered` entries (trust-rules.ts excessOffered). */
export async function boundOffered(keys: KeysStore, origin: string, keep: string): Promise<void> {
  for (const e of excessOffered(await originEntries(keys, origin), keep)) await keys.delete([origin, e.fingerprint]);
}

export async function getKeyHistory(core: StoreCore, origin: string): Promise<KeyHistoryEntry[]> {
  const raws: unknown[] = await core.read(['keys'], (tx) => tx.objectStore('keys').index('by-origin').getAll(origin));
  return core.checkedAll('keys', raws).sort(byFirstSeen);
}

export async function listKeyHistory(core: StoreCore): Promise<KeyHistoryEntry[]> {
  return (await core.getAll('keys')).sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : byFirstSeen(a, b)));
}

export async function revokeKey(core: StoreCore, origin: string, fingerprint: string, at: number): Promise<RevokeResult> {
  checkRevokeArgs(origin, fingerprint, at);
  return core.write(['keys'], async (tx): Promise<RevokeResult> => {
    const keys = tx.objectStore('keys');
    const entry = core.checked('keys', [origin, fingerprint], await keys.get([origin, fingerprint]));
    const revoked = revokedEntry(origin, fingerprint, entry, at);
    if (!revoked) return 'unchanged';
    await keys.put(revoked);
    return 'revoked';
  });
}
