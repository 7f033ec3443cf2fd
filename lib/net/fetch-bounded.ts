// One bounded GET (FORMATS.md §9.1–9.3): no cookies, no referrer, no HTTP cache, a timeout
// covering headers and body, a byte cap enforced while streaming, at most 5 redirects that
// are followed here one hop at a time so that every hop can be checked before it is requested.
// Returns raw bytes and response facts; never parses, never throws.
import type { FetchLike } from '../types';
import type { FetchResult } from './fetch-result';
import type { BoundedFetchOptions } from './fetch-options';
import { classify } from './fetch-classify';
import { followByHand, followGuarded } from './fetch-redirects';
import { followReported } from './fetch-reported';
import { preflight } from './fetch-request';
import { LIMITS } from './limits';

export { isArtifactKind } from '../types';
export type { BoundedFetchOptions, ByteMeter } from './fetch-options';

/**
 * Fetches `url` under the limits of FORMATS.md §9.
 *
 * Result mapping:
 * - 2xx → `ok`, unless the body sniffs as HTML (§9.4) → `absent`/`html` for every kind
 *   (the engine turns an artifact's `absent` into `fetch-failed`).
 * - 304 → `not-modified` when validators were sent; an unsolicited 304 → `absent`/`client-error`.
 * - 404/410 → `absent`/`not-found`; 401/403 → `absent`/`forbidden`; other 4xx → `absent`/`client-error`.
 * - 429 → `transient`/`rate-limited`; 5xx → `transient`/`server-error` (both with Retry-After).
 * - timeout (headers or body) → `transient`/`timeout`; network error or caller abort → `transient`/`network`.
 * - over the byte cap (decoded bytes while streaming, or a declared Content-Length without a
 *   content coding) → `too-large`; over the shared `meter` → `too-large` with `budget: true`.
 * - a discovery document leaving the origin on any hop → `absent`/`cross-origin-redirect`.
 * - an artifact hop failing §9.3 → `blocked` with the checkArtifactUrl code as reason;
 *   an artifact URL failing §9.3 is `blocked` before any request.
 * - more than 5 hops, or a hop back to an URL already visited → `absent`/`too-many-redirects`;
 *   a redirect without a usable Location → `absent`/`redirect-blocked`.
 * - a discovery URL not on the origin, or an unparseable URL/origin → `blocked` without a request
 *   (reasons `url-cross-origin`, `url-invalid`, `origin-invalid`).
 */
export async function fetchBounded(fetch: FetchLike, url: string, opts: BoundedFetchOptions): Promise<FetchResult> {
  const start = opts.clock.now();
  const ms = (): number => Math.max(0, opts.clock.now() - start);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? LIMITS.timeoutMs);
  const onCallerAbort = (): void => controller.abort();
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (opts.signal?.aborted) controller.abort();
  try {
    return await attempt(fetch, url, opts, controller, ms, () => timedOut);
  } catch {
    // attempt() maps every expected failure; this keeps the never-throws promise for the rest.
    return { kind: 'transient', url, status: null, reason: timedOut ? 'timeout' : 'network', retryAfterMs: null, ms: ms() };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Preflight, redirects, then the final response: each stage returns a result when it ends the request. */
async function attempt(fetch: FetchLike, url: string, opts: BoundedFetchOptions, controller: AbortController, ms: () => number, timedOut: () => boolean): Promise<FetchResult> {
  const c = preflight(url, opts, controller, ms, timedOut);
  if (!('requested' in c)) return c;
  const guard = opts.guard;
  const followed = !guard ? await followByHand(c, fetch) : guard.manualRedirects ? await followReported(c, fetch, guard) : await followGuarded(c, fetch, guard);
  if ('result' in followed) return followed.result;
  return classify(c, followed.response, followed.current, followed.redirects);
}
