// What one bounded GET produced (FORMATS.md §9): the fetcher's answer to the engine. The report
// names its kinds as a source's outcome (FetchOutcome in lib/types/documents.ts).
import type { FetchOutcome } from '../types';

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
