// Following redirects in Chrome (FORMATS.md §9.2): a manual redirect's Location, which the
// opaque response hides, is reported by webRequest (onBeforeRedirect) to the request guard, so
// each hop is checked and given its permit before it is requested, as under node
// (fetch-redirects.ts). The address each response came from (webRequest's ip) is judged before
// its bytes are used (dns-check.ts); every fact is awaited, never an order of events.
import type { FetchLike } from '../types';
import type { FetchResult } from './fetch-result';
import { LIMITS } from './limits';
import { UNRESOLVED, type RequestGuard, type RequestWatch } from './request-guard';
import { needsAddressCheck, vetAddresses } from './dns-check';
import { absent, blocked, discardBody, transient, type RequestCtx } from './fetch-request';
import { parseUrl } from './url-safety';
import { checkHop, watchFor, type Followed } from './fetch-redirects';

type Step = { response: Response; next: URL | null; status: number | null } | { result: FetchResult };

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
async function reportedStep(c: RequestCtx, fetch: FetchLike, requestGuard: RequestGuard, url: URL): Promise<Step> {
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
    if (res.type !== 'opaqueredirect') return { response: res, next: null, status: res.status };
    // The Location the opaque redirect hides, as the browser reported it.
    const chain = await watch.settled(undefined, (ch) => ch.redirectTo !== null);
    const next = chain?.redirectTo ? parseUrl(chain.redirectTo, url) : null;
    if (!next) return { result: absent(c, 'redirect-blocked', url.href) };
    return { response: res, next, status: null };
  } finally {
    watch.close();
  }
}

/** Chrome: every hop requested here, in turn, after its check (as under node, with the Location the browser reports). */
export async function followReported(c: RequestCtx, fetch: FetchLike, requestGuard: RequestGuard): Promise<Followed> {
  let current: URL = c.requested;
  const visited = new Set<string>([current.href]);
  let redirects = 0;
  for (;;) {
    const step = await reportedStep(c, fetch, requestGuard, current);
    if ('result' in step) return step;
    if (!step.next) return { response: step.response, current, redirects };
    redirects += 1;
    const verdict = checkHop(c, step.next, step.status, null);
    if (verdict) return { result: verdict };
    if (redirects > LIMITS.maxRedirects || visited.has(step.next.href)) return { result: absent(c, 'too-many-redirects', step.next.href, step.status) };
    visited.add(step.next.href);
    current = step.next;
  }
}
