// pinIfAbsent's decision (PRODUCT.md §5: trust on first use, a revoked key never pinned or
// refreshed), as a pure function of the stored pin and the key's history entry: the answer and the
// records to write. The IndexedDB store runs it inside its transaction (idb-pins.ts), the private
// windows' memory store over its maps (private-store.ts), a probe over the state it read (session.ts).
import type { Pin } from '../types';
import type { KeyHistoryEntry } from './records';
import type { PinResult } from './store-api';

export interface PinStepOutcome {
  result: PinResult;
  /** The pin to write, when it changes (first sight, a later lastSeen). */
  pin: Pin | null;
  /** History entries to write. */
  keys: KeyHistoryEntry[];
  /** A new `offered` entry was written: the origin's offered keys are bounded again. */
  offered: boolean;
}

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
