// One run of the guest comparison (test/e2e/guest.spec.ts, test/e2e/firefox/guest.spec.ts):
// the same pages, loaded in a browser without Skillpin and in one with it, observe the same
// things. Each page is loaded on a silent site (Skillpin's probe finds nothing) and on a
// publishing one, where the probe's skill request is held open while the page runs its
// traffic, so that the comparison also covers a probe in flight (Firefox's request guard
// then has its blocking webRequest listener in place for requests outside tabs).
import { startGuestSite, type GuestSite } from './guest-site';

/** Host names that reach 127.0.0.1: loopback names, an intranet name, a single label. */
export const GUEST_HOSTS = ['localhost', '127.0.0.1', 'wiki.corp.internal', 'intranet'];
/** Names the browser must map to 127.0.0.1 and treat as secure (service workers need it). */
export const MAPPED_HOSTS = ['wiki.corp.internal', 'intranet'];

/** What the test needs of a page, in Playwright and puppeteer alike. */
export interface GuestPage {
  goto(url: string): Promise<void>;
  evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
  /** Presses Ctrl+<key> as the user does. */
  shortcut(key: 'c' | 'v'): Promise<void>;
  close(): Promise<void>;
}

export type Observation = Record<string, unknown>;

export interface GuestSites {
  silent: GuestSite;
  publishing: GuestSite;
  /** Every origin the pages are loaded on. */
  origins(): string[];
  close(): Promise<void>;
}

export async function startGuestSites(): Promise<GuestSites> {
  const silent = await startGuestSite({ publishes: false });
  const publishing = await startGuestSite({ publishes: true });
  return {
    silent,
    publishing,
    origins: () => [silent, publishing].flatMap((site) => GUEST_HOSTS.map((h) => site.origin(h))),
    close: async () => {
      await silent.close();
      await publishing.close();
    },
  };
}

declare global {
  interface Window {
    guestChecks(cross: string): Promise<Observation>;
    guestClipboard(): string[];
  }
}

/** Loads the page at `origin` and reads what it observes; `during` runs between load and checks. */
export async function observe(page: GuestPage, origin: string, cross: string, during?: { before(): Promise<void>; after(): void }): Promise<Observation> {
  await page.goto(`${origin}/`);
  await during?.before();
  const seen = await page.evaluate((c) => window.guestChecks(c), cross);
  await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('source') as HTMLElement);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  }, null);
  await page.shortcut('c');
  await page.evaluate(() => (document.getElementById('sink') as HTMLTextAreaElement).focus(), null);
  await page.shortcut('v');
  const clipboard = await page.evaluate(() => window.guestClipboard(), null);
  during?.after();
  return { ...seen, clipboard };
}

/** What every page sees when nothing interferes: the comparison is only meaningful if this holds without Skillpin. */
export function expectedObservation(): Observation {
  const worker = { own: '200 pong worker', loopback: '200 pong worker' };
  return {
    secureContext: true,
    serviceWorker: { register: 'registered', controlled: 'controlled', throughWorker: `200 ${JSON.stringify(worker)}`, updateCheck: 'checked' },
    sharedWorker: worker,
    dedicatedWorker: worker,
    fetch: '200 pong page',
    xhr: '200 pong xhr',
    webSocket: 'echo hello from the page',
    eventSource: 'an event from loopback',
    form: 'posted q=guest+form&n=2',
    clipboard: ['copy', 'paste:page-copy:guest text'],
  };
}

/** Loads every page in `open()`'s browser; on the publishing site, waits until a probe is in flight when `probes`. */
export async function observeAll(sites: GuestSites, open: () => Promise<GuestPage>, probes: boolean): Promise<Record<string, Observation>> {
  const out: Record<string, Observation> = {};
  for (const site of [sites.silent, sites.publishing]) {
    const cross = site.origin('127.0.0.1');
    for (const host of GUEST_HOSTS) {
      const origin = site.origin(host);
      const page = await open();
      const probing = probes && site === sites.publishing;
      let heldAtEnd = 0;
      const during = {
        before: async () => {
          if (!probing) return;
          const deadline = Date.now() + 15_000;
          while (site.held() === 0) {
            if (Date.now() > deadline) throw new Error(`no probe of ${origin} in flight`);
            await new Promise((done) => setTimeout(done, 50));
          }
        },
        after: () => {
          heldAtEnd = site.held();
          site.release();
        },
      };
      try {
        out[origin] = await observe(page, origin, cross, during);
      } finally {
        site.release();
        await page.close();
      }
      if (probing && heldAtEnd === 0) throw new Error(`the probe of ${origin} ended before the page's traffic did`);
    }
  }
  return out;
}
