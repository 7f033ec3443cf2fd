// Writes a probe can do without: the probe cache, verified bytes, the report. When the browser
// storage refuses them (quota, a closed connection, an unreadable record), the probe keeps what it
// fetched and decided, and each failed operation becomes one `storage-error` diagnostic instead of
// an error that ends the probe (probe-origin.ts notes a failed commit, keys.ts a pin it could not
// write). A refusal by the byte budget has a code of its own.
import { diag } from '../report/codes';
import { StoreError } from '../store/errors';
import type { Diagnostic } from '../types';

export type StorageNotes = ReturnType<typeof storageNotes>;

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string') return e.message;
  return String(e);
}

export function storageNotes() {
  const seen = new Map<string, { message: string; count: number; overBudget: boolean }>();
  return {
    /** Records one failed write (the first message per operation is kept). */
    note(operation: string, error: unknown): void {
      const got = seen.get(operation);
      if (got) got.count += 1;
      else seen.set(operation, { message: errorText(error), count: 1, overBudget: error instanceof StoreError && error.code === 'over-budget' });
    },
    /** One `storage-error` diagnostic per failed operation, in the order they failed. */
    diagnostics(): Diagnostic[] {
      return [...seen.entries()].map(([operation, { message, count, overBudget }]) =>
        // A refusal by the byte budget is not a broken store: it has a code of its own.
        diag(overBudget ? 'skill-bytes-over-budget' : 'storage-error', `${operation} failed${count > 1 ? ` (${count} times)` : ''}: ${message}`),
      );
    },
  };
}
