// A probe's writes and its report, into the store in one readwrite transaction
// (TrustStore.commitProbe). When the store refuses, the big writes a probe can do without go first:
// the new bytes when the byte budget refuses them, then the cache entries and new bytes on any other
// refusal (quota, a closed connection); the pin step and the report are tried again without them.
// Never throws: what could not be written is noted (a `storage-error` diagnostic).
import type { OriginReport } from '../types';
import { StoreError } from '../store/errors';
import type { TrustStore } from '../store/store-api';
import type { StorageNotes } from './storage-guard';
import type { ProbeWrites } from './view';

/** The operations a failed commit lost, in the words of the storage diagnostics (storage-guard.ts). */
export const COMMIT_OPS = {
  cache: 'Saving the probe cache',
  skills: 'Saving verified skill bytes',
  pin: 'Saving the pinned key',
  report: 'Saving the report',
} as const;

export type Committed =
  /** Written (perhaps without the cache entries or new bytes: noted). */
  | 'written'
  /** The pin step found another pin than the snapshot's: the rest was written, the report was not. */
  | 'pin-changed'
  /** Nothing was written: noted. */
  | 'refused'
  /** The first pin could not be written (nor anything else): nothing is pinned. */
  | { firstPin: unknown };

function lostOps(w: ProbeWrites, report: OriginReport | null): string[] {
  const ops: string[] = [];
  if (w.cache.length > 0) ops.push(COMMIT_OPS.cache);
  if (w.skills.length > 0) ops.push(COMMIT_OPS.skills);
  if (w.pin && w.pin.expect !== 'pinned') ops.push(COMMIT_OPS.pin);
  if (report) ops.push(COMMIT_OPS.report);
  return ops;
}

/** One transaction; whether the pin step went as expected. Nothing learned and no report: no transaction at all. */
async function write(store: TrustStore, origin: string, w: ProbeWrites, report: OriginReport | null): Promise<boolean> {
  if (w.skills.length === 0 && w.cache.length === 0 && w.pin === null && report === null) return true;
  const done = await store.commitProbe({ origin, ...(w.pin ? { pin: w.pin } : {}), skills: w.skills, cache: w.cache, report });
  return w.pin === null || done.pin?.result === w.pin.expect;
}

/**
 * Writes `writes` and `report` of `origin`; failures are noted in `saving`. `firstPinTold`: a first
 * pin that cannot be written is told to the caller (which decides the verdict again without it)
 * rather than noted.
 */
export async function commitProbe(store: TrustStore, origin: string, writes: ProbeWrites, report: OriginReport, saving: StorageNotes, firstPinTold = true): Promise<Committed> {
  let error: unknown;
  for (let w = writes; ; ) {
    try {
      return (await write(store, origin, w, report)) ? 'written' : 'pin-changed';
    } catch (e) {
      error = e;
    }
    const lost = lostOps(w, report);
    const bulk = lost.filter((op) => op === COMMIT_OPS.skills || op === COMMIT_OPS.cache);
    if (error instanceof StoreError && error.code === 'over-budget' && w.skills.length > 0) {
      // The byte budget refused the new bytes (only approved bytes are left): everything else is kept.
      saving.note(COMMIT_OPS.skills, error);
      w = { ...w, skills: [] };
    } else if (bulk.length > 0) {
      for (const op of bulk) saving.note(op, error);
      w = { ...w, skills: [], cache: [] };
    } else {
      // A first pin that is not written pins nothing: the caller decides the verdict again without it.
      if (firstPinTold && w.pin?.expect === 'pinned') return { firstPin: error };
      for (const op of lost) saving.note(op, error);
      return 'refused';
    }
  }
}
