// Writes a probe can do without: the probe cache and verified bytes. When the browser storage
// refuses one of them (quota, a closed connection, an unreadable record), the probe goes on with
// what it fetched, and the failure becomes one `storage-error` diagnostic instead of an error
// that ends discovery. Trust writes (pins, approvals) are not guarded here: their callers decide.
import { diag } from '../report/codes';
import { StoreError } from '../trust/errors';
import type { Diagnostic } from '../types';
import type { TrustStore } from '../trust/store-api';

export interface StorageNotes {
  /** Records one failed write (the first message per operation is kept). */
  note(operation: string, error: unknown): void;
  /** One `storage-error` diagnostic per failed operation, in the order they failed. */
  diagnostics(): Diagnostic[];
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'message' in e && typeof (e as { message: unknown }).message === 'string') {
    return (e as { message: string }).message;
  }
  return String(e);
}

export function storageNotes(): StorageNotes {
  const seen = new Map<string, { message: string; count: number; overBudget: boolean }>();
  return {
    note(operation, error) {
      const got = seen.get(operation);
      if (got) got.count += 1;
      else seen.set(operation, { message: errorText(error), count: 1, overBudget: error instanceof StoreError && error.code === 'over-budget' });
    },
    diagnostics() {
      return [...seen.entries()].map(([operation, { message, count, overBudget }]) =>
        // A refusal by the byte budget is not a broken store: it has a code of its own.
        diag(overBudget ? 'skill-bytes-over-budget' : 'storage-error', `${operation} failed${count > 1 ? ` (${count} times)` : ''}: ${message}`),
      );
    },
  };
}

const GUARDED = new Set<PropertyKey>(['putCache', 'putCacheEntries', 'putSkill', 'putSkills']);

const WHAT: Record<string, string> = {
  putCache: 'Saving the probe cache',
  putCacheEntries: 'Saving the probe cache',
  putSkill: 'Saving verified skill bytes',
  putSkills: 'Saving verified skill bytes',
};

/** `store` with its probe cache and skill byte writes (single and batched) turned into writes that report instead of throwing. */
export function guardCacheWrites(store: TrustStore, notes: StorageNotes): TrustStore {
  return new Proxy(store, {
    get(target, prop, receiver): unknown {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (!GUARDED.has(prop)) return (...args: unknown[]): unknown => fn.apply(target, args);
      return async (...args: unknown[]): Promise<void> => {
        try {
          await fn.apply(target, args);
        } catch (e) {
          notes.note(WHAT[String(prop)] ?? String(prop), e);
        }
      };
    },
  });
}
