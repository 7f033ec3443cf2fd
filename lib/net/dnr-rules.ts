// Chrome cannot cancel a request from webRequest (blocking listeners are for policy-installed
// extensions only: https://developer.chrome.com/docs/extensions/develop/migrate/blocking-web-requests),
// so the extension's own requests to non-public hosts are blocked by declarativeNetRequest
// session rules before they leave the browser (FORMATS.md §9.3). The rules match only requests
// the extension itself makes (initiated by its own origin, outside tabs): a page's service worker
// or shared worker also belongs to no tab, and must reach localhost or an intranet host as it
// does without Skillpin (TOOLCHAIN.md §3). A request that may reach such a host (a private origin
// probing itself, or its artifacts, each redirect hop after its own check) first takes a permit:
// a higher-priority allow rule for exactly that URL, held while that request runs.
import { createRuleQueue, type RuleChange, type SessionRule } from './rule-queue';
import { keyOf } from './request-guard';
import { ADDRESS_NAMES, LOCAL_SUFFIXES, LOOPBACK_NAMES, classifyHost } from './url-safety';

export type { RuleChange, SessionRule } from './rule-queue';

/** Rule ids below this are the block rules; permits use ids from here on. */
export const FIRST_PERMIT_ID = 1000;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const N = '[0-9]+';

/** Host patterns (in the canonical form Chrome matches: lower case, IPv4 in dotted decimal). */
const IPV4 = [
  `(0|10|127)\\.${N}\\.${N}\\.${N}`,
  `172\\.(1[6-9]|2[0-9]|3[01])\\.${N}\\.${N}`,
  `192\\.168\\.${N}\\.${N}`,
  `100\\.(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7])\\.${N}\\.${N}`,
  `169\\.254\\.${N}\\.${N}`,
  `(22[4-9]|2[3-5][0-9])\\.${N}\\.${N}\\.${N}`,
  `198\\.1[89]\\.${N}\\.${N}`,
  `192\\.0\\.[02]\\.${N}`,
  `192\\.88\\.99\\.${N}`,
  `198\\.51\\.100\\.${N}`,
  `203\\.0\\.113\\.${N}`,
];
/** Every IPv6 literal: the public ones a probe may use get a permit (needsPermit). */
const IPV6 = '\\[[0-9a-f:.]*\\]';
const NAME_LIST = ['localhost', ...LOCAL_SUFFIXES, ...LOOPBACK_NAMES, ...ADDRESS_NAMES];
/** Names under a local suffix, a few per rule (each rule's compiled pattern must stay under 2 KB). */
const NAMES = Array.from(
  { length: Math.ceil(NAME_LIST.length / 4) },
  (_, i) =>
    `([^/?#@:]*\\.)?(${NAME_LIST.slice(i * 4, i * 4 + 4)
      .map(escapeRegExp)
      .join('|')})\\.?`,
);
const SINGLE_LABEL = '[^/?#@:.\\[\\]]+\\.?';

const wrap = (host: string): string => `^https?://([^/?#@]*@)?(${host})(:[0-9]*)?([/?#]|$)`;

/**
 * The regular expressions (RE2 syntax, also valid in JavaScript) of the block rules, one range or
 * a few names each: Chrome skips a rule whose compiled pattern exceeds 2 KB
 * (https://developer.chrome.com/docs/extensions/reference/api/declarativeNetRequest#regex-rules;
 * the message it logs is quoted in https://github.com/requestly/requestly/issues/1797).
 */
export function blockPatterns(): string[] {
  return [...IPV4.map(wrap), wrap(IPV6), ...NAMES.map(wrap), wrap(SINGLE_LABEL)];
}

/** The block rules for the extension whose id (its origin's host) is `extensionId`. */
export function blockRules(extensionId: string): SessionRule[] {
  return blockPatterns().map((regexFilter, i) => ({
    id: i + 1,
    priority: 1,
    action: { type: 'block' },
    condition: { regexFilter, tabIds: [-1], initiatorDomains: [extensionId], isUrlFilterCaseSensitive: false },
  }));
}

/** Whether the block rules stop a request to `url`, so that it needs a permit first. */
export function needsPermit(url: URL): boolean {
  return url.hostname.startsWith('[') || classifyHost(url.hostname) !== 'public';
}

/**
 * An allow rule for exactly `href` and nothing else. A urlFilter anchored at both ends matches the
 * whole URL; its special characters (`*`, `^`, `|`) can appear in a URL, so such a URL gets an
 * anchored regular expression instead.
 */
export function permitRule(id: number, href: string, extensionId: string): SessionRule {
  const own = { tabIds: [-1], initiatorDomains: [extensionId] };
  const condition = /[*^|]/.test(href) ? { regexFilter: `^${escapeRegExp(href)}$`, isUrlFilterCaseSensitive: true, ...own } : { urlFilter: `|${href}|`, isUrlFilterCaseSensitive: true, ...own };
  return { id, priority: 2, action: { type: 'allow' }, condition };
}

export interface Permits {
  /** Lets the extension request exactly `url` until the returned release is called. */
  acquire(url: URL): Promise<() => void>;
  /**
   * Takes the permits of URLs about to be requested, in one rule update. A request for a reserved
   * URL takes its reservation over (its release then gives the permit up, as if it had acquired
   * it); the returned release gives up the reservations no request took.
   */
  reserve(urls: readonly URL[]): Promise<() => void>;
  /** Replaces every session rule with the block rules (at start: a previous worker's permits are dropped). */
  install(existingIds: number[]): Promise<void>;
  /** The URLs a permit is held for now (for tests: nothing may stay open). */
  held(): string[];
}

/**
 * Permits over `update` (chrome.declarativeNetRequest.updateSessionRules). Concurrent requests for
 * the same URL share one rule; it is removed as soon as the last of them releases it. The rule
 * changes go through a queue (lib/net/rule-queue.ts): in order, so a removal never overtakes the
 * addition it undoes, the changes that arrive while one update is in flight together as the next.
 */
export function createPermits(update: (change: RuleChange) => Promise<void>, opts: { extensionId: string; removalDelayMs?: number }): Permits {
  interface Held {
    id: number;
    /** Requests and reservations holding it. */
    count: number;
    /** Of those, reservations no request has taken over yet. */
    reserved: number;
    ready: Promise<void>;
  }
  const held = new Map<string, Held>();
  const freeIds: number[] = [];
  let nextId = FIRST_PERMIT_ID;
  const run = createRuleQueue(update, { removalDelayMs: opts.removalDelayMs });

  const forget = (href: string, h: Held): void => {
    if (held.get(href) === h) held.delete(href);
  };

  /** The held permit for `href`, its rule asked for when there is none. */
  const take = (href: string): Held => {
    const known = held.get(href);
    if (known) return known;
    const id = freeIds.shift() ?? nextId++;
    const h: Held = { id, count: 0, reserved: 0, ready: run({ removeRuleIds: [id], addRules: [permitRule(id, href, opts.extensionId)] }) };
    held.set(href, h);
    return h;
  };
  /** One hold given up; the rule goes with the last. */
  const give = (href: string, h: Held): void => {
    h.count -= 1;
    if (h.count !== 0) return;
    forget(href, h);
    // A rule that could not be removed keeps its id out of reuse (install() clears it at the next start).
    void run({ removeRuleIds: [h.id] }).then(
      () => freeIds.push(h.id),
      () => undefined,
    );
  };

  return {
    async install(existingIds) {
      await run({ removeRuleIds: existingIds, addRules: blockRules(opts.extensionId) });
    },
    async acquire(url) {
      if (!needsPermit(url)) return () => undefined;
      const href = keyOf(url.href);
      let mine = held.get(href);
      if (mine && mine.reserved > 0) {
        // The reservation's hold becomes this request's.
        mine.reserved -= 1;
      } else {
        mine = take(href);
        mine.count += 1;
      }
      const h = mine;
      try {
        await h.ready;
      } catch {
        // The next request for this URL tries again with a rule of its own.
        forget(href, h);
        give(href, h);
        throw new Error('the permit rule could not be added');
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        give(href, h);
      };
    },
    async reserve(urls) {
      const mine = new Map<string, Held>();
      for (const url of urls) {
        const href = keyOf(url.href);
        if (!needsPermit(url) || mine.has(href)) continue;
        const h = take(href);
        h.count += 1;
        h.reserved += 1;
        mine.set(href, h);
      }
      await Promise.all(
        [...mine].map(async ([href, h]) => {
          try {
            await h.ready;
          } catch {
            // Its requests take their own permits; the holds still reserved go.
            forget(href, h);
            const left = h.reserved;
            h.reserved = 0;
            for (let i = 0; i < left; i++) give(href, h);
          }
        }),
      );
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const [href, h] of mine) {
          if (h.reserved === 0) continue;
          h.reserved -= 1;
          give(href, h);
        }
      };
    },
    held: () => [...held.keys()],
  };
}
