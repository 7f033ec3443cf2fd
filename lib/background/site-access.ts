// Whether the user lets Skillpin read a site (PRODUCT.md §2.1). Chrome lets users limit an
// extension's site access ("On click", "On specific sites"); Firefox lets them revoke its host
// permissions per site. The browser's own answer (permissions.contains) decides; it is asked once
// per origin and kept until the permissions change (permissions.onAdded / onRemoved call changed()).
import { ALL_SITES_PATTERNS, originPattern } from '../match-patterns';
import { httpOrigin } from '../origin';
import type { SiteAccessSummary } from '../messages';

/** What the browser answers about the extension's host permissions. */
export interface AccessSource {
  /** permissions.contains for these match patterns. */
  contains(patterns: string[]): Promise<boolean>;
  /** permissions.getAll().origins: the host patterns granted now. */
  grantedOrigins(): Promise<string[]>;
}

/** How much of the web the user lets Skillpin read, as the options page shows it: every http and https site, or the "specific sites". */
export type AccessSummary = Omit<SiteAccessSummary, 'origin'>;

export interface SiteAccess {
  mayRead(origin: string): Promise<boolean>;
  summary(): Promise<AccessSummary>;
  /** The browser's permissions changed: ask again. */
  changed(): void;
  /**
   * Chrome's "On click": the user clicked the toolbar icon over a tab showing `origin`. Chrome then lets
   * the worker fetch from that origin while the tab stays on it, yet permissions.contains stays false
   * and no permissions event fires (TOOLCHAIN.md §7): the grant is noted here, and ends when the tab
   * leaves the origin or closes.
   */
  clicked(tabId: number, origin: string): void;
  /** A tab committed a navigation: a click grant ends when it leaves the granted origin. */
  navigated(tabId: number, url: string): void;
  tabClosed(tabId: number): void;
}

/** Without a source (node tests, a browser without the API) every site may be read. */
export function siteAccess(source: AccessSource | undefined): SiteAccess {
  let all: Promise<boolean> | null = null;
  const perOrigin = new Map<string, Promise<boolean>>();
  /** Tab id → the origin a toolbar click granted in it. */
  const clicks = new Map<number, string>();

  // A browser that cannot answer gets no request made in its user's name.
  const ask = (patterns: string[]): Promise<boolean> => (source ? source.contains(patterns).catch(() => false) : Promise.resolve(true));

  return {
    async mayRead(origin) {
      all ??= ask(ALL_SITES_PATTERNS);
      if (await all) return true;
      for (const granted of clicks.values()) if (granted === origin) return true;
      const pattern = originPattern(origin);
      if (pattern === null) return false;
      if (!perOrigin.has(pattern)) perOrigin.set(pattern, ask([pattern]));
      return perOrigin.get(pattern) ?? false;
    },
    async summary() {
      if (!source) return { all: true, sites: [] };
      const granted = await source.grantedOrigins().catch(() => [] as string[]);
      const everything = ALL_SITES_PATTERNS.every((p) => granted.includes(p)) || granted.includes('<all_urls>') || granted.includes('*://*/*');
      return { all: everything, sites: everything ? [] : granted.filter((p) => /^https?:\/\//.test(p)).sort() };
    },
    changed() {
      all = null;
      perOrigin.clear();
    },
    clicked: (tabId, origin) => void clicks.set(tabId, origin),
    // The granted origin is an http(s) one (reports.ts noteClick): any other URL leaves it.
    navigated(tabId, url) {
      const granted = clicks.get(tabId);
      if (granted !== undefined && httpOrigin(url) !== granted) clicks.delete(tabId);
    },
    tabClosed: (tabId) => void clicks.delete(tabId),
  };
}
