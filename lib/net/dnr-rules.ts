// Chrome cannot cancel a redirect hop from webRequest (blocking listeners are for policy-installed
// extensions only: https://developer.chrome.com/docs/extensions/develop/migrate/blocking-web-requests),
// so requests the extension itself makes
// (tabId -1) to non-public hosts are blocked by declarativeNetRequest session rules before they
// leave the browser (FORMATS.md §9.3). A probe that is allowed to reach such a host (a private
// origin probing itself, or its artifacts) first takes a permit: a higher-priority allow rule for
// exactly that origin, held while its request runs and a moment after.
import { ADDRESS_NAMES, LOCAL_SUFFIXES, LOOPBACK_NAMES, classifyHost } from './url-safety';

/** The part of chrome.declarativeNetRequest.Rule these rules use. */
export interface SessionRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { regexFilter?: string; urlFilter?: string; tabIds?: number[]; isUrlFilterCaseSensitive?: boolean };
}

export interface RuleChange {
  addRules?: SessionRule[];
  removeRuleIds?: number[];
}

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
const NAMES = Array.from({ length: Math.ceil(NAME_LIST.length / 4) }, (_, i) =>
  `([^/?#@:]*\\.)?(${NAME_LIST.slice(i * 4, i * 4 + 4).map(escapeRegExp).join('|')})\\.?`,
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

export function blockRules(): SessionRule[] {
  return blockPatterns().map((regexFilter, i) => ({
    id: i + 1,
    priority: 1,
    action: { type: 'block' },
    condition: { regexFilter, tabIds: [-1], isUrlFilterCaseSensitive: false },
  }));
}

/** Whether the block rules stop a request to `url`, so that it needs a permit first. */
export function needsPermit(url: URL): boolean {
  return url.hostname.startsWith('[') || classifyHost(url.hostname) !== 'public';
}

export function permitRule(id: number, origin: string): SessionRule {
  return { id, priority: 2, action: { type: 'allow' }, condition: { urlFilter: `|${origin}/`, tabIds: [-1] } };
}

export interface Permits {
  /** Lets the extension's requests reach `url`'s origin until the returned release (and `lingerMs` after). */
  acquire(url: URL): Promise<() => void>;
  /** Replaces every session rule with the block rules (at start: a previous worker's permits are dropped). */
  install(existingIds: number[]): Promise<void>;
}

export function createPermits(update: (change: RuleChange) => Promise<void>, opts: { lingerMs: number }): Permits {
  interface Held {
    id: number;
    count: number;
    timer: ReturnType<typeof setTimeout> | null;
    ready: Promise<void>;
  }
  const held = new Map<string, Held>();
  const freeIds: number[] = [];
  let nextId = FIRST_PERMIT_ID;
  let queue: Promise<void> = Promise.resolve();
  const run = (change: RuleChange): Promise<void> => {
    const p = queue.then(() => update(change));
    queue = p.catch(() => undefined);
    return p;
  };

  const drop = (origin: string, h: Held): void => {
    held.delete(origin);
    // A rule that could not be removed keeps its id out of reuse.
    void run({ removeRuleIds: [h.id] }).then(() => freeIds.push(h.id), () => undefined);
  };

  return {
    async install(existingIds) {
      await run({ removeRuleIds: existingIds, addRules: blockRules() });
    },
    async acquire(url) {
      if (!needsPermit(url)) return () => undefined;
      const origin = url.origin;
      let h = held.get(origin);
      if (!h) {
        const id = freeIds.shift() ?? nextId++;
        h = { id, count: 0, timer: null, ready: run({ removeRuleIds: [id], addRules: [permitRule(id, origin)] }) };
        held.set(origin, h);
      }
      const mine = h;
      mine.count += 1;
      if (mine.timer) {
        clearTimeout(mine.timer);
        mine.timer = null;
      }
      try {
        await mine.ready;
      } catch {
        mine.count -= 1;
        if (mine.count === 0 && held.get(origin) === mine) drop(origin, mine);
        throw new Error('the permit rule could not be added');
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        mine.count -= 1;
        if (mine.count > 0) return;
        mine.timer = setTimeout(() => {
          if (mine.count === 0 && held.get(origin) === mine) drop(origin, mine);
        }, opts.lingerMs);
      };
    },
  };
}
