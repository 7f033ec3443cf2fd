// The options of one bounded GET (fetch-bounded.ts, FORMATS.md §9.1–9.3) and the byte budget it may
// share: the types every stage of the request reads, below the stages so that none imports fetch-bounded.
import type { Clock, DocumentKind } from '../types';
import type { RequestGuard } from './request-guard';

export interface BoundedFetchOptions {
  kind: DocumentKind;
  /** The origin the user visited; discovery documents must stay on it, artifacts obey §9.3 against it. */
  origin: string;
  /** Measures `ms` in the result. The timeout itself runs on the event loop's timers. */
  clock: Clock;
  timeoutMs?: number;
  /** Byte cap; defaults to capFor(kind). */
  cap?: number;
  /** Validators of the stored copy: sent as If-None-Match / If-Modified-Since. */
  conditional?: { etag: string | null; lastModified: string | null } | null;
  /** Cancels the request (for example when the probe is abandoned). */
  signal?: AbortSignal;
  /**
   * In a browser: every hop is checked through webRequest (request-guard.ts), Firefox's while
   * the browser follows, Chrome's as the fetch follows each reported hop itself
   * (fetch-reported.ts). Without it (node) each hop is followed here by hand.
   */
  guard?: RequestGuard;
  /**
   * A byte budget this body shares with other downloads (the engine's per-probe budget,
   * lib/probe/download-budget.ts). A body that does not fit is `too-large` with `budget: true`.
   */
  meter?: ByteMeter;
}

/** A byte budget several downloads share; every answer is final for the bytes asked. */
export interface ByteMeter {
  /** Reserves `bytes` for a body that declares its length; false when they do not fit. */
  reserve(bytes: number): boolean;
  /** Takes `bytes` more (a body of unknown length, as it streams); false when they do not fit. */
  take(bytes: number): boolean;
  /** Gives back what a reservation did not use. */
  release(bytes: number): void;
}
