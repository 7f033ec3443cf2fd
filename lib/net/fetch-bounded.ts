// One bounded GET (FORMATS.md §9.1–9.3): no cookies, no referrer, no HTTP cache, a timeout
// covering headers and body, a byte cap enforced while streaming, at most 5 redirects that
// are followed here one hop at a time so that every hop can be checked before it is requested.
// Then what the final response means (§9.1, §9.4): the body read under its byte cap, an HTML
// soft 404, a revalidation, or the HTTP status mapped to absent or transient.
// Returns raw bytes and response facts; never parses, never throws.
import type { FetchLike } from '../types';
import type { BoundedFetchOptions, ByteMeter, FetchResult } from './fetch-result';
import { retryAfterMs } from './cache-policy';
import { followByHand, followGuarded, followReported } from './fetch-redirects';
import { absent, discardBody, preflight, transient, type RequestCtx } from './fetch-request';
import { sniffsAsHtml } from './html-sniff';
import { capFor, LIMITS } from './limits';

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
    // Preflight, redirects, then the final response: each stage returns a result when it ends the request.
    const c = preflight(url, opts, controller, ms, () => timedOut);
    if (!('requested' in c)) return c;
    const guard = opts.guard;
    const followed = !guard ? await followByHand(c, fetch) : guard.manualRedirects ? await followReported(c, fetch, guard) : await followGuarded(c, fetch, guard);
    if ('result' in followed) return followed.result;
    return await classify(c, followed.response, followed.current, followed.redirects);
  } catch {
    // The stages map every expected failure; this keeps the never-throws promise for the rest.
    return { kind: 'transient', url, status: null, reason: timedOut ? 'timeout' : 'network', retryAfterMs: null, ms: ms() };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** The result of the final response `response`, reached at `current` after `redirects` hops. */
export async function classify(c: RequestCtx, response: Response, current: URL, redirects: number): Promise<FetchResult> {
  const finalUrl = current.href;
  const status = response.status;
  const contentType = response.headers.get('content-type');
  const absentAs = (reason: 'not-found' | 'forbidden' | 'client-error' | 'html' | 'redirect-blocked'): FetchResult => absent(c, reason, finalUrl, status, contentType);

  if (status >= 200 && status <= 299) {
    const cap = c.opts.cap ?? capFor(c.kind);
    let body: Uint8Array | null | typeof OVER_BUDGET;
    try {
      body = await readCapped(response, cap, c.race, c.opts.meter);
    } catch {
      return transient(c, 'network');
    }
    if (body === OVER_BUDGET || body === null) return { kind: 'too-large', url: c.url, finalUrl, status, limit: cap, contentType, ms: c.ms(), ...(body === null ? {} : { budget: true as const }) };
    if (sniffsAsHtml(body, contentType, c.kind)) return absentAs('html');
    return {
      kind: 'ok',
      url: c.url,
      finalUrl,
      status,
      contentType,
      bytes: body,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      cacheControl: response.headers.get('cache-control'),
      redirects,
      ms: c.ms(),
    };
  }

  discardBody(response);
  if (status === 304) {
    if (c.etagSent === null && c.lastModifiedSent === null) return absentAs('client-error');
    return {
      kind: 'not-modified',
      url: c.url,
      finalUrl,
      status: 304,
      ms: c.ms(),
      cacheControl: response.headers.get('cache-control'),
      etag: response.headers.get('etag') ?? c.etagSent,
      lastModified: response.headers.get('last-modified') ?? c.lastModifiedSent,
    };
  }
  if (status === 404 || status === 410) return absentAs('not-found');
  if (status === 401 || status === 403) return absentAs('forbidden');
  if (status === 429 || (status >= 500 && status <= 599)) {
    return {
      kind: 'transient',
      url: c.url,
      status,
      reason: status === 429 ? 'rate-limited' : 'server-error',
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), c.opts.clock.now()),
      ms: c.ms(),
    };
  }
  if (status >= 400 && status <= 499) return absentAs('client-error');
  if (status >= 300 && status <= 399) return absentAs('redirect-blocked');
  return { kind: 'transient', url: c.url, status: status || null, reason: 'network', retryAfterMs: null, ms: c.ms() };
}

/**
 * Whether the body is sent with a content coding (gzip, br, …). The fetch decodes it, so the
 * stream yields decoded bytes while Content-Length is the encoded length: a length that says
 * nothing about the bytes the cap is about.
 */
function isEncoded(response: Response): boolean {
  const coding = response.headers.get('content-encoding');
  return coding !== null && coding.trim() !== '' && coding.trim().toLowerCase() !== 'identity';
}

/** What readCapped answers when the shared byte budget has no room for the body. */
const OVER_BUDGET = Symbol('over-budget');

/**
 * The whole body, or null when it exceeds `cap`. The cap counts the bytes the stream yields,
 * which are decoded bytes (FORMATS.md §9.1): a small gzip body that inflates past the cap is
 * over it. A declared Content-Length over the cap refuses the body before reading only when no
 * content coding applies. With a `meter`, such a declared length is reserved from the shared
 * budget before reading (so downloads side by side are admitted in full or not at all), and a
 * body of unknown length takes from it as it streams; no room is OVER_BUDGET. Rejects on
 * stream errors and aborts.
 */
async function readCapped(response: Response, cap: number, guard: <T>(p: Promise<T>) => Promise<T>, meter?: ByteMeter): Promise<Uint8Array | null | typeof OVER_BUDGET> {
  const declared = response.headers.get('content-length');
  const length = !isEncoded(response) && declared !== null && /^\s*\d+\s*$/.test(declared) ? Number(declared) : null;
  if (length !== null && length > cap) {
    discardBody(response);
    return null;
  }
  let reserved = 0;
  if (meter && length !== null) {
    if (!meter.reserve(length)) {
      discardBody(response);
      return OVER_BUDGET;
    }
    reserved = length;
  }
  if (!response.body) {
    meter?.release(reserved);
    return new Uint8Array(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await guard(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        reader.cancel().catch(() => undefined);
        return null;
      }
      // Bytes past the reservation (or all of them, without one) are taken as they arrive.
      const beyond = Math.min(value.byteLength, total - reserved);
      if (meter && beyond > 0 && !meter.take(beyond)) {
        reader.cancel().catch(() => undefined);
        return OVER_BUDGET;
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  } finally {
    if (meter && total < reserved) meter.release(reserved - total);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
