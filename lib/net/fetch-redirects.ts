// Following redirects (FORMATS.md §9.2–9.3). Under node each hop's Location is read and checked
// before the hop is requested. A browser hides the Location of a manual redirect: in Firefox the
// browser follows while the request guard (request-guard.ts) watches and cancels every hop, and
// the whole chain is judged before the bytes are used; Chrome reports the Location to the request
// guard (webRequest's onBeforeRedirect), so the fetch follows there hop by hop as under node, each
// hop checked and given its permit before it is requested. In Chrome the address each response
// came from (webRequest's ip) is judged before its bytes are used (dns-check.ts); every fact is
// awaited, never an order of events.
import type { FetchLike } from '../types';
import type { FetchResult } from './fetch-result';
import { LIMITS } from './limits';
import { keyOf, UNRESOLVED, type RequestGuard, type RequestWatch, type WatchedChain } from './request-guard';
import { needsAddressCheck, vetAddresses } from './dns-check';
import { absent, blocked, discardBody, transient, type RequestCtx } from './fetch-request';
import { checkArtifactUrl, parseUrl } from './url-safety';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export type Followed = { response: Response; current: URL; redirects: number } | { result: FetchResult };

/** One request of a hop-by-hop chain: its response, and where it redirects to (null: it is the final one). */
type Hop = { response: Response; next: URL | null; status: number | null; contentType: string | null } | { result: FetchResult };

/** The verdict on a hop (or final URL) reached by a redirect; null when it may be used. */
function checkHop(c: RequestCtx, target: URL, status: number | null, contentType: string | null): FetchResult | null {
  if (c.artifact) {
    const check = checkArtifactUrl(c.origin, target);
    return check.ok ? null : blocked(c, check.code);
  }
  if (target.origin !== c.origin) return absent(c, 'cross-origin-redirect', target.href, status, contentType);
  return null;
}

/** The verdict on a chain of URLs the browser followed (the first is `requested`); null when it may be used. */
export function judgeChain(c: RequestCtx, urls: readonly string[]): FetchResult | null {
  const seen = new Set<string>();
  for (let i = 0; i < urls.length; i++) {
    const hop = parseUrl(urls[i] ?? '');
    if (!hop) return absent(c, 'redirect-blocked');
    if (i > 0) {
      const verdict = checkHop(c, hop, null, null);
      if (verdict) return verdict;
      if (i > LIMITS.maxRedirects || seen.has(hop.href)) return absent(c, 'too-many-redirects', hop.href);
    }
    seen.add(hop.href);
  }
  return null;
}

/**
 * The verdict on the chain the browser reported for a request it followed: a hop refused for an
 * unresolved host is transient, then a hop failing judgeChain, then any other refusal; null when none.
 */
function chainVerdict(c: RequestCtx, chain: WatchedChain | null): FetchResult | null {
  if (chain?.refused?.reason === UNRESOLVED) return transient(c, 'network');
  const verdict = chain ? judgeChain(c, chain.urls) : null;
  if (verdict) return verdict;
  return chain?.refused ? blocked(c, chain.refused.reason) : null;
}

/** Watches the extension's request for `url` on behalf of `c`; null when the browser could not be made ready. */
async function watchFor(c: RequestCtx, url: URL, requestGuard: RequestGuard): Promise<RequestWatch | null> {
  try {
    return await requestGuard.watch(url.href, {
      origin: c.origin,
      check: (chain) => {
        const verdict = judgeChain(c, chain);
        return verdict ? (verdict.kind === 'blocked' ? verdict.reason : verdict.kind === 'absent' ? verdict.reason : 'refused') : null;
      },
      onRefused: () => c.controller.abort(),
    });
  } catch {
    return null;
  }
}

/** Firefox: one request the browser follows, every hop watched and cancelled when refused. */
export async function followGuarded(c: RequestCtx, fetch: FetchLike, requestGuard: RequestGuard): Promise<Followed> {
  const watch = await watchFor(c, c.requested, requestGuard);
  if (!watch) return { result: transient(c, 'network') };
  try {
    let res: Response;
    try {
      res = await c.race(fetch(c.requested.href, { ...c.init, redirect: 'follow' }));
    } catch {
      const chain = await watch.settled();
      const verdict = chainVerdict(c, chain);
      if (verdict) return { result: verdict };
      if (c.timedOut()) return { result: transient(c, 'timeout') };
      // Chromium reports a loop or more than 20 hops only as a network error (the Fetch
      // standard's redirect limit: https://fetch.spec.whatwg.org/#http-redirect-fetch).
      if (chain && chain.urls.length > 1) return { result: absent(c, 'too-many-redirects') };
      return { result: transient(c, 'network') };
    }
    const final: URL = (res.url ? parseUrl(res.url) : null) ?? c.requested;
    if (!res.redirected && final.href === c.requested.href) return { response: res, current: c.requested, redirects: 0 };
    // Redirected: the bytes are used only when the browser showed every hop and each passes.
    const chain = await watch.settled();
    const seenAll = chain !== null && chain.urls.length > 1 && keyOf(chain.urls[chain.urls.length - 1] ?? '') === final.href;
    const verdict = chainVerdict(c, chain);
    if (verdict || !seenAll) {
      discardBody(res);
      return { result: verdict ?? absent(c, 'redirect-blocked', final.href, res.status, res.headers.get('content-type')) };
    }
    return { response: res, current: final, redirects: chain.urls.length - 1 };
  } finally {
    watch.close();
  }
}

/** Requests each hop in turn, after its check: `request` answers for one URL. */
async function followHops(c: RequestCtx, request: (url: URL) => Promise<Hop>): Promise<Followed> {
  let current: URL = c.requested;
  const visited = new Set<string>([current.href]);
  let redirects = 0;
  for (;;) {
    const hop = await request(current);
    if ('result' in hop) return hop;
    if (!hop.next) return { response: hop.response, current, redirects };
    redirects += 1;
    const verdict = checkHop(c, hop.next, hop.status, hop.contentType);
    if (verdict) return { result: verdict };
    if (redirects > LIMITS.maxRedirects || visited.has(hop.next.href)) return { result: absent(c, 'too-many-redirects', hop.next.href, hop.status, hop.contentType) };
    visited.add(hop.next.href);
    current = hop.next;
  }
}

/** Under node: one request for `url` with a manual redirect; its response, or the Location it redirects to. */
async function manualHop(c: RequestCtx, fetch: FetchLike, url: URL): Promise<Hop> {
  let response: Response;
  try {
    response = await c.race(fetch(url.href, c.init));
  } catch {
    return { result: transient(c, 'network') };
  }
  // An opaque redirect hides its Location: the chain ends here, and followByHand lets the browser follow.
  if (response.type === 'opaqueredirect' || !REDIRECT_STATUSES.has(response.status)) return { response, next: null, status: null, contentType: null };
  const location = response.headers.get('location');
  const contentType = response.headers.get('content-type');
  discardBody(response);
  const next: URL | null = location === null ? null : parseUrl(location, url);
  if (!next) return { result: absent(c, 'redirect-blocked', url.href, response.status, contentType) };
  return { response, next, status: response.status, contentType };
}

/** Under node (and wherever a manual redirect shows its Location): each hop checked before it is requested. */
export async function followByHand(c: RequestCtx, fetch: FetchLike): Promise<Followed> {
  const followed = await followHops(c, (url) => manualHop(c, fetch, url));
  if ('result' in followed || followed.response.type !== 'opaqueredirect') return followed;
  // A browser without a request guard hides the Location of a manual redirect. The
  // extension always passes a guard; this remains for other browser callers: re-issue
  // letting the browser follow and check the final URL only (the hops stay unseen).
  const { current, redirects } = followed;
  let response: Response;
  try {
    response = await c.race(fetch(current.href, { ...c.init, redirect: 'follow' }));
  } catch {
    if (c.timedOut()) return { result: transient(c, 'timeout') };
    // The origin answered with a redirect, and the chain the browser then followed
    // failed. Chromium reports a loop or more than 20 hops only as a network error
    // (https://fetch.spec.whatwg.org/#http-redirect-fetch), and
    // the hops are invisible here: the chain cannot be followed, so treat it like a
    // chain over the hop limit (FORMATS.md §9.2) rather than as an outage to retry.
    return { result: absent(c, 'too-many-redirects') };
  }
  if (response.type === 'opaqueredirect') return { result: absent(c, 'redirect-blocked') };
  const final: URL = (response.url ? parseUrl(response.url) : null) ?? current;
  if (!response.redirected && final.href === current.href) return { response, current: final, redirects };
  const verdict = checkHop(c, final, response.status, response.headers.get('content-type'));
  if (verdict) {
    discardBody(response);
    return { result: verdict };
  }
  return { response, current: final, redirects: redirects + 1 };
}

/** The verdict on where `url`'s response came from, once the browser has said (Chrome's `ip`); null when it may be used. */
async function addressVerdict(c: RequestCtx, url: URL, watch: RequestWatch, requestGuard: RequestGuard): Promise<FetchResult | null> {
  if (!needsAddressCheck(c.origin, url)) return null;
  const key = url.href;
  const chain = await watch.settled(undefined, (ch) => ch.addresses[key] !== undefined);
  const address = chain?.addresses[key];
  // The address the visited origin itself answered from says nothing about this name (a proxy).
  if (address !== undefined && requestGuard.originAddresses?.(c.origin).includes(address)) return null;
  const why = vetAddresses(c.origin, url, address === undefined ? null : [address]);
  if (why === UNRESOLVED) return transient(c, 'network');
  return why ? blocked(c, why) : null;
}

/** Chrome: one request for `url` with a manual redirect, watched; its response, or where it redirects to. */
async function reportedHop(c: RequestCtx, fetch: FetchLike, requestGuard: RequestGuard, url: URL): Promise<Hop> {
  const watch = await watchFor(c, url, requestGuard);
  if (!watch) return { result: transient(c, 'network') };
  try {
    let res: Response;
    try {
      res = await c.race(fetch(url.href, c.init));
    } catch {
      const chain = await watch.settled();
      if (chain?.refused && chain.refused.reason !== UNRESOLVED) return { result: blocked(c, chain.refused.reason) };
      return { result: transient(c, 'network') };
    }
    const verdict = await addressVerdict(c, url, watch, requestGuard);
    if (verdict) {
      discardBody(res);
      return { result: verdict };
    }
    if (res.type !== 'opaqueredirect') return { response: res, next: null, status: res.status, contentType: null };
    // The Location the opaque redirect hides, as the browser reported it.
    const chain = await watch.settled(undefined, (ch) => ch.redirectTo !== null);
    const next = chain?.redirectTo ? parseUrl(chain.redirectTo, url) : null;
    if (!next) return { result: absent(c, 'redirect-blocked', url.href) };
    return { response: res, next, status: null, contentType: null };
  } finally {
    watch.close();
  }
}

/** Chrome: every hop requested here, in turn, after its check (as under node, with the Location the browser reports). */
export function followReported(c: RequestCtx, fetch: FetchLike, requestGuard: RequestGuard): Promise<Followed> {
  return followHops(c, (url) => reportedHop(c, fetch, requestGuard, url));
}
