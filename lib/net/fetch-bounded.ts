// One bounded GET (FORMATS.md §9.1–9.3): no cookies, no referrer, no HTTP cache, a timeout
// covering headers and body, a byte cap enforced while streaming, at most 5 redirects that
// are followed here one hop at a time so that every hop can be checked before it is requested.
// Returns raw bytes and response facts; never parses, never throws.
import type { Clock, DocumentKind, FetchLike, FetchResult } from '../types';
import { retryAfterMs } from './cache-policy';
import { sniffsAsHtml } from './html-sniff';
import { LIMITS, capFor } from './limits';
import { UNRESOLVED, type RequestGuard, type RequestWatch } from './request-guard';
import { checkArtifactUrl } from './url-safety';

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
   * In a browser: lets the browser follow redirects while every hop is checked through
   * webRequest (request-guard.ts). Without it (node) each hop is followed here by hand.
   */
  guard?: RequestGuard;
}

const ACCEPT: Record<DocumentKind, string> = {
  'llms-txt': 'text/plain, text/markdown;q=0.9, */*;q=0.1',
  index: 'application/json, text/plain;q=0.5, */*;q=0.1',
  'legacy-index': 'application/json, text/plain;q=0.5, */*;q=0.1',
  attestations: 'application/json, text/plain;q=0.5, */*;q=0.1',
  'signing-key': 'text/plain, application/octet-stream;q=0.5, */*;q=0.1',
  'skill-md': 'text/markdown, text/plain;q=0.9, */*;q=0.1',
  archive: 'application/zip, application/gzip, application/x-gzip;q=0.9, application/octet-stream;q=0.5, */*;q=0.1',
};

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** SKILL.md and archives are artifacts; everything else is a discovery document. */
export function isArtifactKind(kind: DocumentKind): boolean {
  return kind === 'skill-md' || kind === 'archive';
}

/** Thrown into pending awaits when the request is aborted (timeout or caller). */
class Aborted extends Error {}

function discardBody(response: Response): void {
  try {
    if (response.body && !response.body.locked) response.body.cancel().catch(() => undefined);
  } catch {
    // The body is gone already; nothing to release.
  }
}

function keyOf(text: string): string {
  return parseUrl(text)?.href ?? text;
}

function parseUrl(text: string, base?: URL): URL | null {
  try {
    const u = base ? new URL(text, base) : new URL(text);
    u.hash = '';
    return u;
  } catch {
    return null;
  }
}

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
 *   content coding) → `too-large`.
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

async function attempt(
  fetch: FetchLike,
  url: string,
  opts: BoundedFetchOptions,
  controller: AbortController,
  ms: () => number,
  timedOut: () => boolean,
): Promise<FetchResult> {
  const { kind } = opts;
  const signal = controller.signal;
  const artifact = isArtifactKind(kind);
  const blocked = (reason: string): FetchResult => ({ kind: 'blocked', url, reason, ms: ms() });
  const transient = (reason: 'timeout' | 'network'): FetchResult => ({
    kind: 'transient',
    url,
    status: null,
    reason: timedOut() ? 'timeout' : reason,
    retryAfterMs: null,
    ms: ms(),
  });

  const originUrl = parseUrl(opts.origin);
  if (!originUrl || (originUrl.protocol !== 'https:' && originUrl.protocol !== 'http:')) return blocked('origin-invalid');
  const origin = originUrl.origin;
  const requested = parseUrl(url);
  if (!requested) return blocked('url-invalid');
  if (artifact) {
    const check = checkArtifactUrl(origin, requested);
    if (!check.ok) return blocked(check.code);
  } else if (requested.origin !== origin) {
    return blocked('url-cross-origin');
  }
  if (signal.aborted) return transient('network');

  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new Aborted()), { once: true });
  });
  aborted.catch(() => undefined);
  const guard = <T>(p: Promise<T>): Promise<T> => Promise.race([p, aborted]);

  const headers: Record<string, string> = { Accept: ACCEPT[kind] };
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
  };

  /** The verdict on a hop (or final URL) reached by a redirect; null when it may be used. */
  const checkHop = (target: URL, status: number | null, contentType: string | null): FetchResult | null => {
    if (artifact) {
      const check = checkArtifactUrl(origin, target);
      return check.ok ? null : blocked(check.code);
    }
    if (target.origin !== origin) {
      return { kind: 'absent', url, finalUrl: target.href, status, reason: 'cross-origin-redirect', contentType, ms: ms() };
    }
    return null;
  };

  /** The verdict on a chain of URLs the browser followed (the first is `requested`); null when it may be used. */
  const judgeChain = (urls: readonly string[]): FetchResult | null => {
    const seen = new Set<string>();
    for (let i = 0; i < urls.length; i++) {
      const hop = parseUrl(urls[i] ?? '');
      if (!hop) return { kind: 'absent', url, finalUrl: null, status: null, reason: 'redirect-blocked', contentType: null, ms: ms() };
      if (i > 0) {
        const verdict = checkHop(hop, null, null);
        if (verdict) return verdict;
        if (i > LIMITS.maxRedirects || seen.has(hop.href)) {
          return { kind: 'absent', url, finalUrl: hop.href, status: null, reason: 'too-many-redirects', contentType: null, ms: ms() };
        }
      }
      seen.add(hop.href);
    }
    return null;
  };

  const first: URL = requested;
  let current: URL = first;
  let redirects = 0;
  let response: Response;
  if (opts.guard) {
    const followed = await followGuarded(opts.guard);
    if ('result' in followed) return followed.result;
    ({ response, current, redirects } = followed);
  } else {
    const manual = await followByHand();
    if ('result' in manual) return manual.result;
    ({ response, current, redirects } = manual);
  }

  type Followed = { response: Response; current: URL; redirects: number } | { result: FetchResult };

  /** In a browser: one request the browser follows, every hop watched (request-guard.ts). */
  async function followGuarded(requestGuard: RequestGuard): Promise<Followed> {
    let watch: RequestWatch;
    try {
      watch = await requestGuard.watch(first.href, {
        origin,
        check: (chain) => {
          const verdict = judgeChain(chain);
          return verdict ? (verdict.kind === 'blocked' ? verdict.reason : verdict.kind === 'absent' ? verdict.reason : 'refused') : null;
        },
        onRefused: () => controller.abort(),
      });
    } catch {
      return { result: transient('network') };
    }
    try {
      let res: Response;
      try {
        res = await guard(fetch(first.href, { ...init, redirect: 'follow' }));
      } catch {
        const chain = await watch.settled();
        if (chain?.refused?.reason === UNRESOLVED) return { result: transient('network') };
        const verdict = chain ? judgeChain(chain.urls) : null;
        if (verdict) return { result: verdict };
        if (chain?.refused) return { result: blocked(chain.refused.reason) };
        if (timedOut()) return { result: transient('timeout') };
        // Chromium reports a loop or more than 20 hops only as a network error (the Fetch
        // standard's redirect limit: https://fetch.spec.whatwg.org/#http-redirect-fetch).
        if (chain && chain.urls.length > 1) {
          return { result: { kind: 'absent', url, finalUrl: null, status: null, reason: 'too-many-redirects', contentType: null, ms: ms() } };
        }
        return { result: transient('network') };
      }
      const final: URL = (res.url ? parseUrl(res.url) : null) ?? first;
      if (!res.redirected && final.href === first.href) return { response: res, current: first, redirects: 0 };
      // Redirected: the bytes are used only when the browser showed every hop and each passes.
      const chain = await watch.settled();
      if (chain?.refused?.reason === UNRESOLVED) {
        discardBody(res);
        return { result: transient('network') };
      }
      const seenAll = chain !== null && chain.urls.length > 1 && keyOf(chain.urls[chain.urls.length - 1] ?? '') === final.href;
      const verdict = chain ? judgeChain(chain.urls) : null;
      if (verdict || !seenAll || chain?.refused) {
        discardBody(res);
        if (verdict) return { result: verdict };
        if (chain?.refused) return { result: blocked(chain.refused.reason) };
        return { result: { kind: 'absent', url, finalUrl: final.href, status: res.status, reason: 'redirect-blocked', contentType: res.headers.get('content-type'), ms: ms() } };
      }
      return { response: res, current: final, redirects: chain.urls.length - 1 };
    } finally {
      watch.close();
    }
  }

  /** Under node (and wherever a manual redirect shows its Location): each hop checked before it is requested. */
  async function followByHand(): Promise<Followed> {
    let current: URL = first;
    const visited = new Set<string>([current.href]);
    let redirects = 0;
    let response: Response;
    for (;;) {
      try {
        response = await guard(fetch(current.href, init));
      } catch {
        return { result: transient('network') };
      }
      if (response.type === 'opaqueredirect') {
        // A browser without a request guard hides the Location of a manual redirect. The
        // extension always passes a guard; this remains for other browser callers: re-issue
        // letting the browser follow and check the final URL only (the hops stay unseen).
        try {
          response = await guard(fetch(current.href, { ...init, redirect: 'follow' }));
        } catch {
          if (timedOut()) return { result: transient('timeout') };
          // The origin answered with a redirect, and the chain the browser then followed
          // failed. Chromium reports a loop or more than 20 hops only as a network error
          // (https://fetch.spec.whatwg.org/#http-redirect-fetch), and
          // the hops are invisible here: the chain cannot be followed, so treat it like a
          // chain over the hop limit (FORMATS.md §9.2) rather than as an outage to retry.
          return { result: { kind: 'absent', url, finalUrl: null, status: null, reason: 'too-many-redirects', contentType: null, ms: ms() } };
        }
        if (response.type === 'opaqueredirect') {
          return { result: { kind: 'absent', url, finalUrl: null, status: null, reason: 'redirect-blocked', contentType: null, ms: ms() } };
        }
        const final: URL = (response.url ? parseUrl(response.url) : null) ?? current;
        if (response.redirected || final.href !== current.href) {
          redirects += 1;
          const verdict = checkHop(final, response.status, response.headers.get('content-type'));
          if (verdict) {
            discardBody(response);
            return { result: verdict };
          }
        }
        current = final;
        break;
      }
      if (!REDIRECT_STATUSES.has(response.status)) break;
      const location = response.headers.get('location');
      const contentType = response.headers.get('content-type');
      discardBody(response);
      const next: URL | null = location === null ? null : parseUrl(location, current);
      if (!next) {
        return { result: { kind: 'absent', url, finalUrl: current.href, status: response.status, reason: 'redirect-blocked', contentType, ms: ms() } };
      }
      redirects += 1;
      const verdict = checkHop(next, response.status, contentType);
      if (verdict) return { result: verdict };
      if (redirects > LIMITS.maxRedirects || visited.has(next.href)) {
        return { result: { kind: 'absent', url, finalUrl: next.href, status: response.status, reason: 'too-many-redirects', contentType, ms: ms() } };
      }
      visited.add(next.href);
      current = next;
    }
    return { response, current, redirects };
  }

  const finalUrl = current.href;
  const status = response.status;
  const contentType = response.headers.get('content-type');
  const absent = (reason: 'not-found' | 'forbidden' | 'client-error' | 'html' | 'redirect-blocked'): FetchResult => ({
    kind: 'absent',
    url,
    finalUrl,
    status,
    reason,
    contentType,
    ms: ms(),
  });

  if (status >= 200 && status <= 299) {
    const cap = opts.cap ?? capFor(kind);
    let body: Uint8Array | null;
    try {
      body = await readCapped(response, cap, guard);
    } catch {
      return transient('network');
    }
    if (body === null) {
      return { kind: 'too-large', url, finalUrl, status, limit: cap, contentType, ms: ms() };
    }
    if (sniffsAsHtml(body, contentType, kind)) return absent('html');
    return {
      kind: 'ok',
      url,
      finalUrl,
      status,
      contentType,
      bytes: body,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      cacheControl: response.headers.get('cache-control'),
      redirects,
      ms: ms(),
    };
  }

  discardBody(response);
  if (status === 304) {
    if (etagSent === null && lastModifiedSent === null) return absent('client-error');
    return {
      kind: 'not-modified',
      url,
      finalUrl,
      status: 304,
      ms: ms(),
      cacheControl: response.headers.get('cache-control'),
      etag: response.headers.get('etag') ?? etagSent,
      lastModified: response.headers.get('last-modified') ?? lastModifiedSent,
    };
  }
  if (status === 404 || status === 410) return absent('not-found');
  if (status === 401 || status === 403) return absent('forbidden');
  if (status === 429 || (status >= 500 && status <= 599)) {
    return {
      kind: 'transient',
      url,
      status,
      reason: status === 429 ? 'rate-limited' : 'server-error',
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), opts.clock.now()),
      ms: ms(),
    };
  }
  if (status >= 400 && status <= 499) return absent('client-error');
  if (status >= 300 && status <= 399) return absent('redirect-blocked');
  return { kind: 'transient', url, status: status || null, reason: 'network', retryAfterMs: null, ms: ms() };
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

/**
 * The whole body, or null when it exceeds `cap`. The cap counts the bytes the stream yields,
 * which are decoded bytes (FORMATS.md §9.1): a small gzip body that inflates past the cap is
 * over it. A declared Content-Length over the cap refuses the body before reading only when no
 * content coding applies. Rejects on stream errors and aborts.
 */
async function readCapped(
  response: Response,
  cap: number,
  guard: <T>(p: Promise<T>) => Promise<T>,
): Promise<Uint8Array | null> {
  const declared = response.headers.get('content-length');
  if (!isEncoded(response) && declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > cap) {
    discardBody(response);
    return null;
  }
  if (!response.body) return new Uint8Array(0);
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
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
