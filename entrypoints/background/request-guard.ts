// Wiring of the redirect-hop guard (lib/net/request-guard.ts) to webRequest, with Chrome's
// session rules (lib/net/dnr-rules.ts; they match only the extension's own requests) and
// Firefox's name lookups (lib/net/dns-check.ts). Only the extension's own requests are watched
// (tabId -1, initiated by the extension). In Chrome the fetch follows redirects hop by hop from
// the Location onBeforeRedirect reports, and each response's address (`ip`) is judged.
//
// The webRequest listeners are added while the extension's own requests run (and a while after),
// not at the top level: requests outside tabs include every web page's service worker, and a
// top-level listener would wake this worker for each of them. Nothing is missed: a request is
// made only after the guard is watching it, and the listeners are then in place.
import { browser } from 'wxt/browser';
import { createPermits } from '@/lib/net/dnr-rules';
import { vetResolvedHost } from '@/lib/net/dns-check';
import { createRequestWatcher, type RequestDetails, type RequestGuard } from '@/lib/net/request-guard';

const FILTER = { urls: ['http://*/*', 'https://*/*'], tabId: -1 };
/** A permit's removal waits this long for other rule changes to go with it (lib/net/dnr-rules.ts). */
const REMOVAL_DELAY_MS = 25;
/** The listeners stay this long after the last watched request. */
const LISTEN_LINGER_MS = 15_000;

/** Firefox's dns.resolve (not in Chrome, so not in the shared browser type). */
async function resolveHost(host: string): Promise<string[]> {
  const dns = (browser as unknown as { dns: { resolve(host: string): Promise<{ addresses: string[] }> } }).dns;
  return (await dns.resolve(host)).addresses;
}

/** Installs the session rules (Chrome) and returns the guard; listeners come and go with the requests. */
export function installRequestGuard(extensionBase: string): RequestGuard {
  const firefox = import.meta.env.BROWSER === 'firefox';
  let acquire: (url: URL) => Promise<() => void> = async () => () => undefined;
  let reserve: (urls: URL[]) => Promise<() => void> = async () => () => undefined;
  if (!firefox) {
    const dnr = browser.declarativeNetRequest;
    const permits = createPermits((change) => dnr.updateSessionRules(change as Parameters<typeof dnr.updateSessionRules>[0]), { extensionId: browser.runtime.id, removalDelayMs: REMOVAL_DELAY_MS });
    const installed = dnr
      .getSessionRules()
      .then((rules) => permits.install(rules.map((r) => r.id)))
      .catch((err: unknown) => console.error('Skillpin: the request rules could not be installed', err));
    acquire = async (url) => {
      await installed;
      return permits.acquire(url);
    };
    reserve = async (urls) => {
      await installed;
      return permits.reserve(urls);
    };
  }

  let listening: Promise<void> | null = null;
  let quiet: ReturnType<typeof setTimeout> | null = null;
  const onBefore = (d: unknown) => watcher.onBeforeRequest(d as RequestDetails);
  const onBeforeChrome = (d: unknown): undefined => {
    watcher.onBeforeRequest(d as RequestDetails);
    return undefined;
  };
  const ended = (d: unknown): void => watcher.onEnded(d as RequestDetails);
  const redirected = (d: unknown): void => watcher.onBeforeRedirect(d as RequestDetails);
  type Listener = Parameters<typeof browser.webRequest.onBeforeRequest.addListener>[0];
  const wr = browser.webRequest as unknown as Record<
    'onBeforeRedirect' | 'onResponseStarted' | 'onCompleted' | 'onErrorOccurred',
    {
      addListener(cb: (d: unknown) => void, filter: typeof FILTER): void;
      removeListener(cb: (d: unknown) => void): void;
    }
  >;
  const ENDS = ['onResponseStarted', 'onCompleted', 'onErrorOccurred'] as const;

  function listen(): Promise<void> {
    if (quiet) clearTimeout(quiet);
    quiet = null;
    listening ??= (async () => {
      if (firefox) {
        // Firefox waits for a returned promise (the name lookup) before the request or hop goes out.
        browser.webRequest.onBeforeRequest.addListener(onBefore as unknown as Listener, FILTER, ['blocking']);
      } else {
        browser.webRequest.onBeforeRequest.addListener(onBeforeChrome as unknown as Listener, FILTER);
      }
      for (const e of ENDS) wr[e].addListener(ended, FILTER);
      wr.onBeforeRedirect.addListener(redirected, FILTER);
      // A round trip through the extension API: the browser has the listeners before the request.
      await browser.runtime.getPlatformInfo();
    })();
    return listening;
  }

  function unlisten(): void {
    listening = null;
    browser.webRequest.onBeforeRequest.removeListener((firefox ? onBefore : onBeforeChrome) as unknown as Listener);
    for (const e of ENDS) wr[e].removeListener(ended);
    wr.onBeforeRedirect.removeListener(redirected);
  }

  let reserved = 0;
  const idle = (): void => {
    if (watcher.open() === 0 && reserved === 0 && listening) {
      if (quiet) clearTimeout(quiet);
      quiet = setTimeout(unlisten, LISTEN_LINGER_MS);
    }
  };

  const watcher = createRequestWatcher({
    extensionBase,
    blocking: firefox,
    manualRedirects: !firefox,
    prepare: async (url) => {
      await listen();
      const release = await acquire(url);
      return () => {
        release();
        idle();
      };
    },
    // Firefox takes no permits: a reservation only has the listeners in place early.
    reserve: async (urls) => {
      reserved += 1;
      const [, held] = await Promise.allSettled([listen(), reserve(urls)]);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        reserved -= 1;
        if (held.status === 'fulfilled') held.value();
        idle();
      };
    },
    vet: firefox ? (origin, url) => vetResolvedHost(origin, url, resolveHost) : undefined,
  });
  return watcher.guard;
}
