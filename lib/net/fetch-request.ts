// The shared state of one bounded request (fetch-bounded.ts): its preflight checks, request
// options and the small helpers every stage uses. FORMATS.md §9.1–9.3.
import { DOCUMENTS, isArtifactKind, type DocumentKind } from '../types';
import type { BoundedFetchOptions, FetchResult } from './fetch-result';
import { checkArtifactUrl, parseUrl } from './url-safety';

/** Thrown into pending awaits when the request is aborted (timeout or caller). */
class Aborted extends Error {}

export function discardBody(response: Response): void {
  try {
    if (response.body && !response.body.locked) response.body.cancel().catch(() => undefined);
  } catch {
    // The body is gone already; nothing to release.
  }
}

export interface RequestCtx {
  /** The URL as the caller asked for it (every result names it). */
  url: string;
  kind: DocumentKind;
  artifact: boolean;
  /** The visited origin, normalised. */
  origin: string;
  requested: URL;
  init: RequestInit;
  opts: BoundedFetchOptions;
  controller: AbortController;
  etagSent: string | null;
  lastModifiedSent: string | null;
  /** Races a promise against the request's abort (timeout or caller). */
  race<T>(p: Promise<T>): Promise<T>;
  ms(): number;
  timedOut(): boolean;
}

export function blocked(c: Pick<RequestCtx, 'url' | 'ms'>, reason: string): FetchResult {
  return { kind: 'blocked', url: c.url, reason, ms: c.ms() };
}

/** An `absent` result: the document is not there (or not where it may be used). */
export function absent(
  c: Pick<RequestCtx, 'url' | 'ms'>,
  reason: Extract<FetchResult, { kind: 'absent' }>['reason'],
  finalUrl: string | null = null,
  status: number | null = null,
  contentType: string | null = null,
): FetchResult {
  return { kind: 'absent', url: c.url, finalUrl, status, reason, contentType, ms: c.ms() };
}

export function transient(c: Pick<RequestCtx, 'url' | 'ms' | 'timedOut'>, reason: 'timeout' | 'network'): FetchResult {
  return { kind: 'transient', url: c.url, status: null, reason: c.timedOut() ? 'timeout' : reason, retryAfterMs: null, ms: c.ms() };
}

/**
 * The checks made before any request (the origin and the URL under §9.3) and the request's
 * options: a result when the request must not be made, else its context.
 */
export function preflight(url: string, opts: BoundedFetchOptions, controller: AbortController, ms: () => number, timedOut: () => boolean): RequestCtx | FetchResult {
  const { kind } = opts;
  const artifact = isArtifactKind(kind);
  const early = { url, ms, timedOut };
  const originUrl = parseUrl(opts.origin);
  if (!originUrl || (originUrl.protocol !== 'https:' && originUrl.protocol !== 'http:')) return blocked(early, 'origin-invalid');
  const origin = originUrl.origin;
  const requested = parseUrl(url);
  if (!requested) return blocked(early, 'url-invalid');
  if (artifact) {
    const check = checkArtifactUrl(origin, requested);
    if (!check.ok) return blocked(early, check.code);
  } else if (requested.origin !== origin) {
    return blocked(early, 'url-cross-origin');
  }
  const signal = controller.signal;
  if (signal.aborted) return transient(early, 'network');

  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new Aborted()), { once: true });
  });
  aborted.catch(() => undefined);

  const headers: Record<string, string> = { Accept: DOCUMENTS[kind].accept };
  const etagSent = opts.conditional?.etag ?? null;
  const lastModifiedSent = opts.conditional?.lastModified ?? null;
  if (etagSent !== null) headers['If-None-Match'] = etagSent;
  if (lastModifiedSent !== null) headers['If-Modified-Since'] = lastModifiedSent;
  const init: RequestInit = {
    method: 'GET',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    cache: 'no-store',
    redirect: 'manual',
    headers,
    signal,
    // Fetch priority: behind whatever the pages in the user's tabs are loading.
    priority: 'low',
  };
  return {
    url,
    kind,
    artifact,
    origin,
    requested,
    init,
    opts,
    controller,
    etagSent,
    lastModifiedSent,
    race: <T>(p: Promise<T>): Promise<T> => Promise.race([p, aborted]),
    ms,
    timedOut,
  };
}
