// Wiring of the redirect-hop guard (lib/net/request-guard.ts) to webRequest, with Chrome's
// session rules (lib/net/dnr-rules.ts) and Firefox's name lookups (lib/net/dns-check.ts).
// Only the extension's own requests are watched (tabId -1, initiated by the extension).
import { browser } from 'wxt/browser';
import { createPermits } from '@/lib/net/dnr-rules';
import { vetResolvedHost } from '@/lib/net/dns-check';
import { createRequestWatcher, type RequestDetails, type RequestGuard } from '@/lib/net/request-guard';

const FILTER = { urls: ['http://*/*', 'https://*/*'], tabId: -1 };
/** A permit outlives its request briefly, so a probe's next request to the same origin reuses it. */
const PERMIT_LINGER_MS = 3000;

/** Firefox's dns.resolve (not in Chrome, so not in the shared browser type). */
async function resolveHost(host: string): Promise<string[]> {
  const dns = (browser as unknown as { dns: { resolve(host: string): Promise<{ addresses: string[] }> } }).dns;
  return (await dns.resolve(host)).addresses;
}

/** Registers the listeners (call at the top level of the background) and returns the guard. */
export function installRequestGuard(extensionBase: string): RequestGuard {
  const firefox = import.meta.env.BROWSER === 'firefox';
  let prepare: ((url: URL) => Promise<() => void>) | undefined;
  if (!firefox) {
    const dnr = browser.declarativeNetRequest;
    const permits = createPermits((change) => dnr.updateSessionRules(change as Parameters<typeof dnr.updateSessionRules>[0]), { lingerMs: PERMIT_LINGER_MS });
    const installed = dnr
      .getSessionRules()
      .then((rules) => permits.install(rules.map((r) => r.id)))
      .catch((err: unknown) => console.error('Skillpin: the request rules could not be installed', err));
    prepare = async (url) => {
      await installed;
      return permits.acquire(url);
    };
  }
  const watcher = createRequestWatcher({
    extensionBase,
    blocking: firefox,
    prepare,
    vet: firefox ? (origin, url) => vetResolvedHost(origin, url, resolveHost) : undefined,
  });
  const ended = (d: RequestDetails): void => watcher.onEnded(d);
  if (firefox) {
    // Firefox waits for a returned promise (the name lookup) before the request or hop goes out.
    type Blocking = Parameters<typeof browser.webRequest.onBeforeRequest.addListener>[0];
    const listener = ((d: RequestDetails) => watcher.onBeforeRequest(d)) as unknown as Blocking;
    browser.webRequest.onBeforeRequest.addListener(listener, FILTER, ['blocking']);
  } else {
    browser.webRequest.onBeforeRequest.addListener((d) => {
      watcher.onBeforeRequest(d as RequestDetails);
      return undefined;
    }, FILTER);
  }
  browser.webRequest.onResponseStarted.addListener((d) => ended(d as RequestDetails), FILTER);
  browser.webRequest.onCompleted.addListener((d) => ended(d as RequestDetails), FILTER);
  browser.webRequest.onErrorOccurred.addListener((d) => ended(d as RequestDetails), FILTER);
  return watcher.guard;
}
