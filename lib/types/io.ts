// The injected I/O of lib/: fetch and the clock.

// ---------------------------------------------------------------------------
// Injected I/O
// ---------------------------------------------------------------------------

/** The subset of `fetch` the engine uses. Tests inject a stub or a loopback server. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Wall clock in milliseconds since the epoch. Tests inject a fake one. */
export interface Clock {
  now(): number;
}
