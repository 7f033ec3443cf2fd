// Every redirect hop checked in the browsers (PRODUCT.md §2.3, §2.5; FORMATS.md §9.2–9.3).
// A browser answers `redirect: "manual"` with an opaque redirect that hides the Location (status
// 0, type "opaqueredirect": the web-platform test
// https://searchfox.org/mozilla-central/source/testing/web-platform/tests/fetch/api/redirect/redirect-mode.any.js),
// but webRequest tells the extension about its own requests:
// - Chrome reports the hidden Location (onBeforeRedirect's redirectUrl), so the fetch follows
//   hop by hop itself, each hop checked before it is requested (fetch-redirects.ts), and reports
//   the address each response came from (`ip`), which decides a public name that resolves to a
//   private address (dns-check.ts). Chrome cannot cancel a request (no blocking webRequest in MV3:
//   https://developer.chrome.com/docs/extensions/develop/migrate/blocking-web-requests), so
//   requests to non-public hosts are stopped beforehand by the session rules of dnr-rules.ts.
// - Firefox follows the chain itself and a blocking listener cancels a refused hop before it is
//   requested; fetch-bounded judges the whole chain again once it has ended.
// Facts arrive as events whose order is not promised: each is filed under its request and its
// URL, and a caller waits for the facts it needs (settled's `until`), never for an event order.

import { parseUrl } from './url-safety';

/** What fetch-bounded asks of the browser for one request. */
export interface RequestGuard {
  /** Chrome: a manual redirect's Location is reported, and the fetch follows each hop itself. */
  readonly manualRedirects: boolean;
  /** Watches the extension's next request for `url`; resolves once the browser is ready for it. */
  watch(url: string, rules: WatchRules): Promise<RequestWatch>;
  /**
   * The addresses the origin's own host answered this worker's requests from (Chrome's `ip`). An
   * artifact host answering from one of them tells nothing about where its name resolves: behind a
   * proxy every response reports the proxy's address (FORMATS.md §9.2).
   */
  originAddresses?(origin: string): readonly string[];
  /**
   * Chrome: the permits for URLs a phase of the probe is about to request, taken together in one
   * rule update, so that its requests do not wait for one update each (each request still takes
   * its own permit, which then costs nothing). A URL reserved and then not requested lets nothing
   * else through: a permit matches that exact URL, for the extension's own requests only. The
   * returned release gives them up; a reservation that could not be made costs only its time.
   */
  reserve?(urls: readonly string[]): Promise<() => void>;
}

export interface WatchRules {
  /** The origin whose probe makes the request. */
  origin: string;
  /** Why the chain, whose last URL is the newest hop, may not go on; null when it may. */
  check(chain: readonly string[]): string | null;
  /** A hop was refused: the request should stop now (Chrome cannot cancel the hop itself). */
  onRefused(): void;
}

export interface RequestWatch {
  /**
   * What the browser reported once `until` holds for it (by default: the request has ended or was
   * refused), or what was seen after `waitMs`; null when no request was seen.
   */
  settled(waitMs?: number, until?: (chain: WatchedChain) => boolean): Promise<WatchedChain | null>;
  close(): void;
}

export interface WatchedChain {
  /** Every URL the browser requested for this fetch, in order, the first included. */
  urls: string[];
  /** The hop the guard refused (and, in Firefox, cancelled) with the reason. */
  refused: { url: string; reason: string } | null;
  /** The browser reported the end of the request (a response, a completion or an error). */
  ended: boolean;
  /** Where the browser was redirected last (onBeforeRedirect's redirectUrl); null when it was not. */
  redirectTo: string | null;
  /** The address each URL's response came from (webRequest's `ip`), by URL without fragment. */
  addresses: Record<string, string>;
}

/** A refusal for a host whose address could not be resolved: not a verdict on the publisher. */
export const UNRESOLVED = 'url-unresolved';

/** The webRequest details the watcher reads (Chrome and Firefox both provide these). */
export interface RequestDetails {
  requestId: string;
  url: string;
  tabId: number;
  /** Chrome: the initiator origin. */
  initiator?: string;
  /** Firefox: the URL of the document or worker that made the request. */
  originUrl?: string;
  documentUrl?: string;
  /** The address the response came from (onBeforeRedirect, onResponseStarted, onCompleted; sometimes onErrorOccurred). */
  ip?: string;
  /** onBeforeRedirect: where the browser is redirected. */
  redirectUrl?: string;
}

export interface WatcherOptions {
  /** The extension's own base URL (chrome-extension://id/ or moz-extension://uuid/): only its requests are watched. */
  extensionBase: string;
  /** Firefox: the listener may cancel a hop by answering `{ cancel: true }`. */
  blocking: boolean;
  /** Further checks of a URL about to be requested (Firefox: where its name resolves); a reason refuses it. */
  vet?: (origin: string, url: URL) => Promise<string | null>;
  /** Chrome: what must be in place before a request to `url` (a session-rule permit); returns its release. */
  prepare?: (url: URL) => Promise<() => void>;
  /** Chrome: RequestGuard.reserve. */
  reserve?: (urls: URL[]) => Promise<() => void>;
  /** How long settled() waits for the end of a request by default. */
  waitMs?: number;
  /** Chrome: the fetch follows redirects by hand from the reported Location (RequestGuard.manualRedirects). */
  manualRedirects?: boolean;
}

interface Entry extends WatchedChain {
  rules: WatchRules;
  key: string;
  /** URLs filed from an event that came before the request's own onBeforeRequest. */
  early: Set<string>;
  requestId: string | null;
  wake: Array<() => void>;
}

export interface RequestWatcher {
  guard: RequestGuard;
  /** webRequest.onBeforeRequest (blocking in Firefox: may return a cancel answer). */
  onBeforeRequest(details: RequestDetails): { cancel: boolean } | Promise<{ cancel: boolean }> | undefined;
  /** webRequest.onBeforeRedirect: where the browser goes next, and the address that answered. */
  onBeforeRedirect(details: RequestDetails): void;
  /** onResponseStarted, onCompleted and onErrorOccurred: the request has ended. */
  onEnded(details: RequestDetails): void;
  /** Watches not yet closed (for tests: nothing may leak). */
  open(): number;
}

function wakeAll(e: { wake: Array<() => void> }): void {
  for (const w of e.wake.splice(0)) w();
}

/** Origin → the addresses its own host answered from: a few per origin, for a bounded number of origins. */
function servedAddresses(): { remember(origin: string, ip: string): void; of(origin: string): string[] } {
  const served = new Map<string, Set<string>>();
  return {
    remember(origin, ip) {
      const known = served.get(origin) ?? new Set<string>();
      served.delete(origin);
      known.add(ip);
      if (known.size > 8) known.delete(known.values().next().value as string);
      served.set(origin, known);
      if (served.size > 256) served.delete(served.keys().next().value as string);
    },
    of: (origin) => [...(served.get(origin) ?? [])],
  };
}

function sameHost(url: string, origin: string): boolean {
  const host = parseUrl(url)?.hostname;
  return host !== undefined && host === parseUrl(origin)?.hostname;
}

/** The URL as a request is made for it (no fragment); text that is no URL, as it is. */
export function keyOf(url: string): string {
  return parseUrl(url)?.href ?? url;
}

/** RequestGuard.reserve over the wiring's: unparseable URLs are left to their own request's checks. */
function reserveFor(reserve: (urls: URL[]) => Promise<() => void>): (urls: readonly string[]) => Promise<() => void> {
  return async (urls) => {
    // A URL that does not parse is refused by fetch-bounded before any request.
    const parsed = urls.map((u) => parseUrl(u)).filter((u) => u !== null);
    if (parsed.length === 0) return () => undefined;
    try {
      return await reserve(parsed);
    } catch {
      return () => undefined;
    }
  };
}

export function createRequestWatcher(opts: WatcherOptions): RequestWatcher {
  // Compared as text: URL parsers differ on the origin of extension schemes.
  const own = opts.extensionBase.replace(/\/+$/, '');
  /** Whether a request is the extension's own: outside any tab, made by one of its pages or its worker. */
  const isOwn = (d: RequestDetails): boolean => {
    if (d.tabId !== -1) return false;
    const from = d.initiator ?? d.originUrl ?? d.documentUrl ?? '';
    return from === own || from.startsWith(`${own}/`);
  };
  const pending = new Map<string, Entry[]>();
  const byRequest = new Map<string, Entry>();
  let live = 0;

  const refuse = (e: Entry, url: string, reason: string): { cancel: boolean } | undefined => {
    if (!e.refused) e.refused = { url, reason };
    e.rules.onRefused();
    wakeAll(e);
    return opts.blocking ? { cancel: true } : undefined;
  };

  const served = servedAddresses();

  /** The watch a request belongs to: by its id, or the next watch waiting for its URL. */
  const claim = (d: RequestDetails): Entry | undefined => {
    if (!isOwn(d)) return undefined;
    const known = byRequest.get(d.requestId);
    if (known) return known;
    const queue = pending.get(keyOf(d.url));
    const entry = queue?.shift();
    if (!entry) return undefined;
    if (queue && queue.length === 0) pending.delete(entry.key);
    entry.requestId = d.requestId;
    byRequest.set(d.requestId, entry);
    return entry;
  };

  /** Files what an event tells about its URL (an event may come before the request's own). */
  const note = (e: Entry, d: RequestDetails): void => {
    const key = keyOf(d.url);
    if (!e.urls.some((u) => keyOf(u) === key)) {
      e.urls.push(d.url);
      e.early.add(key);
    }
    if (d.ip) {
      e.addresses[key] = d.ip;
      if (sameHost(d.url, e.rules.origin)) served.remember(e.rules.origin, d.ip);
    }
  };

  const onBeforeRequest = (d: RequestDetails): { cancel: boolean } | Promise<{ cancel: boolean }> | undefined => {
    const e = claim(d);
    if (!e) return undefined;
    // Every request is a hop (the same URL again is a loop), unless a later event of it came first.
    if (!e.early.delete(keyOf(d.url))) e.urls.push(d.url);
    wakeAll(e);
    if (e.refused) return refuse(e, d.url, e.refused.reason);
    const reason = e.urls.length > 1 ? e.rules.check(e.urls) : null;
    if (reason) return refuse(e, d.url, reason);
    if (!opts.vet) return opts.blocking ? { cancel: false } : undefined;
    let target: URL;
    try {
      target = new URL(d.url);
    } catch {
      return refuse(e, d.url, 'url-invalid');
    }
    const vetted = opts.vet(e.rules.origin, target).then(
      (why) => (why ? (refuse(e, d.url, why) ?? { cancel: true }) : { cancel: false }),
      () => refuse(e, d.url, UNRESOLVED) ?? { cancel: true },
    );
    return opts.blocking ? vetted : undefined;
  };

  const onBeforeRedirect = (d: RequestDetails): void => {
    const e = claim(d);
    if (!e) return;
    note(e, d);
    if (d.redirectUrl) e.redirectTo = d.redirectUrl;
    wakeAll(e);
  };

  // The request stays filed under its id until its watch closes: every late event still counts.
  const onEnded = (d: RequestDetails): void => {
    const e = claim(d);
    if (!e) return;
    note(e, d);
    e.ended = true;
    wakeAll(e);
  };

  const snapshot = (e: Entry): WatchedChain | null => (e.urls.length === 0 ? null : { urls: [...e.urls], refused: e.refused, ended: e.ended, redirectTo: e.redirectTo, addresses: { ...e.addresses } });

  const guard: RequestGuard = {
    manualRedirects: opts.manualRedirects ?? false,
    originAddresses: (origin) => served.of(origin),
    ...(opts.reserve ? { reserve: reserveFor(opts.reserve) } : {}),
    async watch(url, rules) {
      const release = opts.prepare ? await opts.prepare(new URL(url)) : () => undefined;
      const e: Entry = { rules, key: keyOf(url), urls: [], refused: null, ended: false, redirectTo: null, addresses: {}, early: new Set(), requestId: null, wake: [] };
      const queue = pending.get(e.key) ?? [];
      queue.push(e);
      pending.set(e.key, queue);
      live += 1;
      let closed = false;
      return {
        settled(waitMs = opts.waitMs ?? 2000, until = (c: WatchedChain) => c.ended || c.refused !== null) {
          return new Promise<WatchedChain | null>((resolve) => {
            const done = (): void => {
              clearTimeout(timer);
              resolve(snapshot(e));
            };
            const timer = setTimeout(done, waitMs);
            const check = (): void => {
              const now = snapshot(e);
              if (closed || e.refused || (now && until(now))) done();
              else e.wake.push(check);
            };
            check();
          });
        },
        close() {
          if (closed) return;
          closed = true;
          live -= 1;
          const q = pending.get(e.key);
          if (q) {
            const at = q.indexOf(e);
            if (at >= 0) q.splice(at, 1);
            if (q.length === 0) pending.delete(e.key);
          }
          if (e.requestId !== null && byRequest.get(e.requestId) === e) byRequest.delete(e.requestId);
          wakeAll(e);
          release();
        },
      };
    },
  };

  return { guard, onBeforeRequest, onBeforeRedirect, onEnded, open: () => live };
}
