// Errors of the trust store. Every failure that leaves the store is a StoreError with a
// stable code; callers switch on the code, never on the message.

export type StoreErrorCode =
  /** The browser refused the write: storage is full. Nothing of the failed write was kept. */
  | 'quota-exceeded'
  /** Another context holds the database open at an older version and did not let go. */
  | 'blocked'
  /** A stored record does not have the shape its store requires (it is kept, and skipped). */
  | 'corrupt-record'
  /** The database is newer than this code, a migration failed, or the connection was closed for an upgrade. */
  | 'version-error'
  /** A caller passed a record that does not have the required shape; nothing was written. */
  | 'invalid-input'
  /** The pinned key changed since the caller decided; nothing was written. */
  | 'pin-changed'
  /**
   * Storing these skill bytes would put an origin, or the whole store, over its byte budget, and
   * only approved bytes (never evicted) are left to make room. Nothing was written or removed.
   */
  | 'over-budget'
  /** The key was revoked by the user for this origin; nothing was written. */
  | 'key-revoked'
  /** The store was closed. */
  | 'closed'
  | 'unknown';

export interface StoreErrorDetails {
  /** The object store the error is about, when there is one. */
  store?: string;
  /** The record key, as text, when there is one. */
  key?: string;
  cause?: unknown;
}

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly store: string | null;
  readonly key: string | null;
  override readonly cause: unknown;

  constructor(code: StoreErrorCode, message: string, details: StoreErrorDetails = {}) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
    this.store = details.store ?? null;
    this.key = details.key ?? null;
    this.cause = details.cause;
  }
}

/** A checked input: `value`, or, when its check gave null, the refusal `invalid-input` with `message`. */
export function checkedInput<T>(value: T | null, message: string): T {
  if (value === null) throw new StoreError('invalid-input', message);
  return value;
}

/** The property `name` of `e` when `e` is an object that has it (else undefined). */
function property(e: unknown, name: string): unknown {
  return typeof e === 'object' && e !== null && name in e ? (e as Record<string, unknown>)[name] : undefined;
}

function errorMessage(e: unknown): string {
  const message = property(e, 'message');
  if (typeof message === 'string' && message !== '') return message;
  if (typeof e === 'string') return e;
  return 'unknown IndexedDB error';
}

/** Maps whatever IndexedDB (or a wrapper) threw to a StoreError. StoreErrors pass through. */
export function classifyIdbError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const name = property(e, 'name');
  const message = errorMessage(e);
  // Chrome and Firefox name it QuotaExceededError (legacy code 22); older Firefox
  // builds reported NS_ERROR_DOM_QUOTA_REACHED.
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || property(e, 'code') === 22 || /quota/i.test(message)) {
    return new StoreError('quota-exceeded', `storage quota exceeded: ${message}`, { cause: e });
  }
  if (name === 'VersionError') return new StoreError('version-error', `database version error: ${message}`, { cause: e });
  if (name === 'DataError' || name === 'DataCloneError') {
    return new StoreError('invalid-input', `record refused by IndexedDB: ${message}`, { cause: e });
  }
  if (name === 'InvalidStateError' && /clos/i.test(message)) {
    return new StoreError('closed', `database connection is closed: ${message}`, { cause: e });
  }
  return new StoreError('unknown', message, { cause: e });
}
