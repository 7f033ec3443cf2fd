// The contract of one bounded GET (FORMATS.md §9): the options it takes, the byte budget it may
// share, and what it produced, the fetcher's answer to the engine. The types every stage of the
// request reads, below the stages so that none imports fetch-bounded. The report names the
// result's kinds as a source's outcome (FetchOutcome in lib/types/documents.ts).
import type { Clock, DocumentKind, FetchOutcome } from '../types';
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
   * the browser follows, Chrome's as the fetch follows each reported hop itself. Without it
   * (node) the fetch follows each hop by hand (both in fetch-redirects.ts).
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

/** What one bounded GET produced. Bytes are raw: never decoded then re-encoded. */
export type FetchResult =
  | {
      kind: 'ok';
      url: string;
      finalUrl: string;
      status: number;
      contentType: string | null;
      bytes: Uint8Array;
      etag: string | null;
      lastModified: string | null;
      cacheControl: string | null;
      redirects: number;
      ms: number;
    }
  | { kind: 'not-modified'; url: string; finalUrl: string; status: 304; ms: number; cacheControl: string | null; etag: string | null; lastModified: string | null }
  | {
      /** 404/410/401/403, HTML soft-404, cross-origin redirect of a discovery document, >5 redirects. */
      kind: 'absent';
      url: string;
      finalUrl: string | null;
      status: number | null;
      reason: 'not-found' | 'forbidden' | 'client-error' | 'html' | 'cross-origin-redirect' | 'too-many-redirects' | 'redirect-blocked';
      contentType: string | null;
      ms: number;
    }
  | {
      /** 429, 5xx, timeout, network error: keep the last good state, retry with backoff. */
      kind: 'transient';
      url: string;
      status: number | null;
      reason: 'timeout' | 'network' | 'server-error' | 'rate-limited';
      retryAfterMs: number | null;
      ms: number;
    }
  | {
      kind: 'too-large';
      url: string;
      finalUrl: string | null;
      status: number | null;
      limit: number;
      contentType: string | null;
      ms: number;
      /** The shared download budget ran out (BoundedFetchOptions.meter), not this body's own cap. */
      budget?: true;
    }
  | { kind: 'blocked'; url: string; reason: string; ms: number };

/** Fails to compile when FetchResult's kinds and the report's FetchOutcome drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type MustHold<T extends true> = T;
export type FetchOutcomeMatches = MustHold<Same<FetchResult['kind'], FetchOutcome>>;
