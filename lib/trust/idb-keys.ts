// The key history of the trust store (PRODUCT.md §5): every fingerprint an origin has shown and what
// became of it. Revocations are written here and outlive "forget"; the pin operations
// (idb-pins.ts) read and update the same records in their own transactions.
import type { KeyHistoryEntry } from './records';
import { requireText, requireTime, type StoreCore } from './idb-core';
import type { RevokeResult } from './store-api';
import { toKeyHistoryEntry } from './validate';

/**
 * Keys an origin offered but nobody trusted, kept per origin (the oldest go first): a site that
 * serves a new random key on every visit must not grow the history without end.
 */
export const MAX_OFFERED_KEYS_PER_ORIGIN = 16;

function keyEntryKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; fingerprint?: unknown } | null;
  return [r?.origin, r?.fingerprint];
}

function byFirstSeen(a: KeyHistoryEntry, b: KeyHistoryEntry): number {
  return a.firstSeen - b.firstSeen || (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0);
}

/** The history entry of (origin, fingerprint); an unreadable one may be a revocation: refuse. */
export async function historyEntry(core: StoreCore, keys: { get(key: [string, string]): Promise<KeyHistoryEntry | undefined> }, origin: string, fingerprint: string): Promise<KeyHistoryEntry | null> {
  const raw: unknown = await keys.get([origin, fingerprint]);
  if (raw === undefined) return null;
  const entry = toKeyHistoryEntry(raw);
  if (!entry) throw core.corrupt('keys', [origin, fingerprint]);
  return entry;
}

/** Keeps at most MAX_OFFERED_KEYS_PER_ORIGIN `offered` entries, dropping the least recently seen (never `keep`). */
export async function boundOffered(
  keys: { index(name: 'by-origin'): { getAll(origin: string): Promise<KeyHistoryEntry[]> }; delete(key: [string, string]): Promise<void> },
  origin: string,
  keep: string,
): Promise<void> {
  const offered = (await keys.index('by-origin').getAll(origin))
    .map((raw: unknown) => toKeyHistoryEntry(raw))
    .filter((e): e is KeyHistoryEntry => e !== null && e.state === 'offered' && e.fingerprint !== keep)
    .sort((a, b) => a.lastSeen - b.lastSeen);
  const excess = offered.length + 1 - MAX_OFFERED_KEYS_PER_ORIGIN;
  for (const e of offered.slice(0, Math.max(0, excess))) await keys.delete([origin, e.fingerprint]);
}

export async function getKeyHistory(core: StoreCore, origin: string): Promise<KeyHistoryEntry[]> {
  const raws: unknown[] = await core.read(['keys'], (tx) => tx.objectStore('keys').index('by-origin').getAll(origin));
  return core.checkedAll('keys', raws, toKeyHistoryEntry, keyEntryKeyOf).sort(byFirstSeen);
}

export async function listKeyHistory(core: StoreCore): Promise<KeyHistoryEntry[]> {
  const raws: unknown[] = await core.read(['keys'], (tx) => tx.objectStore('keys').getAll());
  return core.checkedAll('keys', raws, toKeyHistoryEntry, keyEntryKeyOf).sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : byFirstSeen(a, b)));
}

export async function revokeKey(core: StoreCore, origin: string, fingerprint: string, at: number): Promise<RevokeResult> {
  requireText(origin, 'origin');
  requireText(fingerprint, 'fingerprint');
  requireTime(at, 'at');
  return core.write(['keys'], async (tx): Promise<RevokeResult> => {
    const keys = tx.objectStore('keys');
    const raw: unknown = await keys.get([origin, fingerprint]);
    const entry = raw === undefined ? null : toKeyHistoryEntry(raw);
    if (raw !== undefined && !entry) core.corrupt('keys', [origin, fingerprint]);
    if (entry?.state === 'revoked') return 'unchanged';
    await keys.put(revokedEntry(origin, fingerprint, entry, at));
    return 'revoked';
  });
}

/** The history entry of a key revoked at `at` (the entry it had, if any, keeps its key and times). */
export function revokedEntry(origin: string, fingerprint: string, entry: KeyHistoryEntry | null, at: number): KeyHistoryEntry {
  return { origin, fingerprint, key: entry?.key ?? null, firstSeen: entry?.firstSeen ?? at, lastSeen: entry?.lastSeen ?? at, state: 'revoked', revokedAt: at };
}
