// Wiring of the redirect-hop guard (lib/net/request-guard.ts) to webRequest, with Chrome's
// session rules (lib/net/dnr-rules.ts; they match only the extension's own requests) and
// Firefox's name lookups (lib/net/dns-check.ts). Only the extension's own requests are watched
// (tabId -1, initiated by the extension). In Chrome the fetch follows redirects hop by hop from
// the Location onBeforeRedirect reports, and each response's address (`ip`) is judged.
//
// The webRequest listeners are added while the extension's own requests run (and a while after),
// not at the top level, and in Chrome only for the hosts those requests go to: Chrome's `tabId: -1`
// filter means any tab (measured: every request of every page reached such a listener), so a
// listener for every http(s) URL would be sent each request of each page loaded meanwhile, and a
// worker stopped while it was registered would be started by the next page's requests. In Chrome
// the extension follows each redirect hop itself, so every URL it requests is known before it is
// requested, and each new host gets its own set of listeners filtered to it. Firefox follows hops
// itself and must see a hop to any host before it goes out: there the filter covers every http(s)
// URL (Firefox's `tabId: -1` is requests outside tabs). Nothing is missed: a request is made only
// after the guard is watching its host, and the listeners are then in place.
import { browser } from 'wxt/browser';
import { createPermits, type Permits } from '@/lib/net/dnr-rules';
import { vetResolvedHost } from '@/lib/net/dns-check';
import { createRequestWatcher, type RequestDetails, type RequestGuard } from '@/lib/net/request-guard';
import { originPattern } from '@/lib/match-patterns';
import { BROAD, ListenSets } from '@/lib/net/listen-sets';

const FILTER = { urls: ['http://*/*', 'https://*/*'], tabId: -1 };
/** A permit's removal waits this long for other rule changes to go with it (lib/net/dnr-rules.ts). */
const REMOVAL_DELAY_MS = 25;
/** A host's listeners stay this long after its last watched request. */
const LISTEN_LINGER_MS = 15_000;

/** Firefox's dns.resolve (not in Chrome, so not in the shared browser type). */
async function resolveHost(host: string): Promise<string[]> {
  const dns = (browser as unknown as { dns: { resolve(host: string): Promise<{ addresses: string[] }> } }).dns;
  return (await dns.resolve(host)).addresses;
}

type PermitsApi = Pick<Permits, 'acquire' | 'reserve'>;

/** Firefox takes no permits (it cancels a hop before it is requested). */
const noPermits: PermitsApi = { acquire: async () => () => undefined, reserve: async () => () => undefined };

/** Chrome: the block rules installed now, and a permit per request that may reach a non-public host. */
function sessionRulePermits(): PermitsApi {
  const dnr = browser.declarativeNetRequest;
  const permits = createPermits((change) => dnr.updateSessionRules(change as Parameters<typeof dnr.updateSessionRules>[0]), { extensionId: browser.runtime.id, removalDelayMs: REMOVAL_DELAY_MS });
  const installed = dnr
    .getSessionRules()
    .then((rules) => permits.install(rules.map((r) => r.id)))
    .catch((err: unknown) => console.error('Skillpin: the request rules could not be installed', err));
  return { acquire: (url) => installed.then(() => permits.acquire(url)), reserve: (urls) => installed.then(() => permits.reserve(urls)) };
}

/** Installs the session rules (Chrome) and returns the guard; listeners come and go with the requests. */
export function installRequestGuard(extensionBase: string): RequestGuard {
  const firefox = import.meta.env.BROWSER === 'firefox';
  const { acquire, reserve } = firefox ? noPermits : sessionRulePermits();

  type Listener = Parameters<typeof browser.webRequest.onBeforeRequest.addListener>[0];
  type Filter = { urls: string[]; tabId: number };
  const wr = browser.webRequest as unknown as Record<
    'onBeforeRedirect' | 'onResponseStarted' | 'onCompleted' | 'onErrorOccurred',
    {
      addListener(cb: (d: unknown) => void, filter: Filter): void;
      removeListener(cb: (d: unknown) => void): void;
    }
  >;
  const ENDS = ['onResponseStarted', 'onCompleted', 'onErrorOccurred'] as const;

  /** Adds one set of listeners (closures of its own, so each set is removed alone) filtered to `pattern`; throws when the browser refuses it. */
  function addSet(pattern: string): () => void {
    const filter: Filter = pattern === BROAD ? FILTER : { urls: [pattern], tabId: -1 };
    // Firefox waits for a returned promise (the name lookup) before the request or hop goes out.
    const before = firefox ? (d: unknown) => watcher.onBeforeRequest(d as RequestDetails) : (d: unknown): undefined => void watcher.onBeforeRequest(d as RequestDetails);
    const ended = (d: unknown): void => watcher.onEnded(d as RequestDetails);
    const redirected = (d: unknown): void => watcher.onBeforeRedirect(d as RequestDetails);
    const remove = (): void => {
      browser.webRequest.onBeforeRequest.removeListener(before as unknown as Listener);
      for (const e of ENDS) wr[e].removeListener(ended);
      wr.onBeforeRedirect.removeListener(redirected);
    };
    try {
      if (firefox) browser.webRequest.onBeforeRequest.addListener(before as unknown as Listener, filter, ['blocking']);
      else browser.webRequest.onBeforeRequest.addListener(before as unknown as Listener, filter);
      for (const e of ENDS) wr[e].addListener(ended, filter);
      wr.onBeforeRedirect.addListener(redirected, filter);
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  const sets = new ListenSets({
    add: addSet,
    lingerMs: LISTEN_LINGER_MS,
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
  });
  let ready: Promise<void> = Promise.resolve();

  /** Listeners for the hosts of `urls` until `done`; resolves once the browser has any set added now. */
  async function listen(urls: readonly URL[]): Promise<() => void> {
    const use = sets.use(firefox ? [BROAD] : urls.map((u) => originPattern(u.origin) ?? BROAD));
    // A round trip through the extension API: the browser has the listeners before the request.
    if (use.added) ready = browser.runtime.getPlatformInfo().then(() => undefined);
    await ready;
    return use.done;
  }

  const watcher = createRequestWatcher({
    extensionBase,
    blocking: firefox,
    manualRedirects: !firefox,
    prepare: async (url) => {
      const unlisten = await listen([url]);
      const release = await acquire(url).catch((err: unknown) => {
        unlisten();
        throw err;
      });
      return () => {
        release();
        unlisten();
      };
    },
    // Firefox takes no permits: a reservation only has the listeners in place early.
    reserve: async (urls) => {
      const [listening, held] = await Promise.allSettled([listen(urls), reserve(urls)]);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (held.status === 'fulfilled') held.value();
        if (listening.status === 'fulfilled') listening.value();
      };
    },
    vet: firefox ? (origin, url) => vetResolvedHost(origin, url, resolveHost) : undefined,
  });
  return watcher.guard;
}
