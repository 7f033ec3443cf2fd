// Whether the user lets Skillpin read a site (PRODUCT.md §2.1). Chrome lets users limit an
// extension's site access ("On click", "On specific sites"); Firefox lets them revoke its host
// permissions per site. The browser's own answer (permissions.contains) decides; it is asked once
// per origin and kept until the permissions change (permissions.onAdded / onRemoved call changed()).
import { ALL_SITES_PATTERNS, originPattern } from '../match-patterns';

/** What the browser answers about the extension's host permissions. */
export interface AccessSource {
  /** permissions.contains for these match patterns. */
  contains(patterns: string[]): Promise<boolean>;
  /** permissions.getAll().origins: the host patterns granted now. */
  grantedOrigins(): Promise<string[]>;
}

/** How much of the web the user lets Skillpin read, as the options page shows it. */
export interface AccessSummary {
  /** Every http and https site. */
  all: boolean;
  /** The host patterns granted besides (when not all): the "specific sites". */
  sites: string[];
}

export interface SiteAccess {
  mayRead(origin: string): Promise<boolean>;
  summary(): Promise<AccessSummary>;
  /** The browser's permissions changed: ask again. */
  changed(): void;
}

/** Without a source (node tests, a browser without the API) every site may be read. */
export function siteAccess(source: AccessSource | undefined): SiteAccess {
  let all: Promise<boolean> | null = null;
  const perOrigin = new Map<string, Promise<boolean>>();

  const ask = (patterns: string[]): Promise<boolean> => {
    if (!source) return Promise.resolve(true);
    // A browser that cannot answer gets no request made in its user's name.
    return source.contains(patterns).catch(() => false);
  };

  return {
    async mayRead(origin) {
      all ??= ask(ALL_SITES_PATTERNS);
      if (await all) return true;
      const pattern = originPattern(origin);
      if (pattern === null) return false;
      let known = perOrigin.get(pattern);
      if (!known) {
        known = ask([pattern]);
        perOrigin.set(pattern, known);
      }
      return known;
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
  };
}
