// A browser's side of a fetch, for node. Firefox: the browser walks the redirect chain itself,
// tells the request watcher about every request (as webRequest does, with one request id across
// the hops) and obeys a blocking listener's cancel. Chrome: a manual redirect answers with an
// opaque redirect while webRequest reports its Location and the address that answered; the
// session rules (simulated from the very rules dnr-rules.ts adds) stop a request before it is
// made. Chrome's events may come before or after the fetch settles (`late`).
import type { RequestDetails, RequestWatcher } from '../../../lib/net/request-guard';
import type { RuleChange, SessionRule } from '../../../lib/net/dnr-rules';
import type { FetchLike } from '../../../lib/types';

export const EXT_ID = 'abcdefghijklmnopabcdefghijklmnop';
export const EXT_BASE = `chrome-extension://${EXT_ID}/`;

export type Route = { to: string } | { body: string; type?: string };

export interface SimBrowser {
  fetch: FetchLike;
  /** Every URL the simulated network actually received. */
  served: string[];
}

/** Chrome's session rules, as far as dnr-rules.ts uses them. */
export interface SimRules {
  update(change: RuleChange): Promise<void>;
  /** Whether the rules in effect block a request for `url` outside tabs made by `initiator` (a host; default: the extension). */
  blocks(url: string, initiator?: string): boolean;
  rules(): SessionRule[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The urlFilter syntax dnr-rules.ts writes: `|…|` anchored, `*` any, `^` a separator. */
function urlFilterRegExp(filter: string): RegExp {
  let f = filter;
  const start = f.startsWith('|');
  const end = f.endsWith('|') && f.length > 1;
  if (start) f = f.slice(1);
  if (end) f = f.slice(0, -1);
  const body = [...f].map((ch) => (ch === '*' ? '.*' : ch === '^' ? '([^A-Za-z0-9_.%-]|$)' : escapeRegExp(ch))).join('');
  return new RegExp(`${start ? '^' : ''}${body}${end ? '$' : ''}`);
}

function ruleMatches(rule: SessionRule, url: string, initiator: string): boolean {
  const c = rule.condition;
  if (c.initiatorDomains && !c.initiatorDomains.includes(initiator)) return false;
  if (c.regexFilter !== undefined) return new RegExp(c.regexFilter, c.isUrlFilterCaseSensitive === false ? 'i' : '').test(url);
  if (c.urlFilter !== undefined) {
    const re = urlFilterRegExp(c.urlFilter);
    return c.isUrlFilterCaseSensitive ? re.test(url) : new RegExp(re.source, 'i').test(url);
  }
  return true;
}

export function simRules(opts: { failAdd?: () => boolean; failRemove?: () => boolean } = {}): SimRules {
  const rules = new Map<number, SessionRule>();
  return {
    async update(change) {
      for (const id of change.removeRuleIds ?? []) {
        if (rules.has(id) && opts.failRemove?.()) throw new Error('remove failed');
      }
      if ((change.addRules ?? []).length > 0 && opts.failAdd?.()) throw new Error('add failed');
      const removed = new Set(change.removeRuleIds ?? []);
      for (const r of change.addRules ?? []) {
        if (rules.has(r.id) && !removed.has(r.id)) throw new Error(`Rule with id ${r.id} already exists`);
      }
      for (const id of removed) rules.delete(id);
      for (const r of change.addRules ?? []) rules.set(r.id, r);
    },
    blocks(url, initiator = EXT_ID) {
      // The highest priority wins; at equal priority allow beats block.
      const hits = [...rules.values()].filter((r) => ruleMatches(r, url, initiator));
      if (hits.length === 0) return false;
      const top = Math.max(...hits.map((r) => r.priority));
      return !hits.some((r) => r.priority === top && r.action.type === 'allow');
    },
    rules: () => [...rules.values()],
  };
}

export interface SimOptions {
  /** Firefox-like: redirects followed by the browser, the watcher may cancel. */
  blockedByRules?: (url: URL) => boolean;
  /** No webRequest events at all. */
  silent?: boolean;
  /** Chrome: manual redirects reported, session rules, an address for each host. */
  chrome?: { rules?: SimRules; addressOf?: (host: string) => string | undefined; late?: boolean };
}

export function simBrowser(routes: Record<string, Route>, watcher: RequestWatcher | null, opts: SimOptions = {}): SimBrowser {
  const served: string[] = [];
  let nextId = 1;
  const chrome = opts.chrome;
  const fetch: FetchLike = async (url, init) => {
    const requestId = String(nextId++);
    const details = (u: string, extra: Partial<RequestDetails> = {}): RequestDetails => ({ requestId, url: u, tabId: -1, initiator: EXT_BASE.slice(0, -1), ...extra });
    const ip = (u: string): Partial<RequestDetails> => {
      const a = chrome?.addressOf?.(new URL(u).hostname);
      return a === undefined ? {} : { ip: a };
    };
    // Chrome's non-blocking events, delivered now or after the fetch has settled.
    const later: Array<() => void> = [];
    const emit = (event: () => void): void => {
      if (!watcher || opts.silent) return;
      if (chrome?.late) later.push(event);
      else event();
    };
    const flush = (): void => {
      const events = later.splice(0);
      if (events.length === 0) return;
      setTimeout(() => {
        for (const e of events.reverse()) e();
      }, 5);
    };
    const tell = async (u: string): Promise<boolean> => {
      if (!watcher || opts.silent) return true;
      if (chrome) {
        emit(() => void watcher.onBeforeRequest(details(u)));
        return true;
      }
      const answer = await watcher.onBeforeRequest(details(u));
      return !(answer && answer.cancel);
    };
    const end = (u: string, withIp = true): void => emit(() => watcher?.onEnded(details(u, withIp ? ip(u) : {})));
    try {
      let current = url;
      for (let hop = 0; hop <= 20; hop++) {
        if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        const allowed = await tell(current);
        if (!allowed || opts.blockedByRules?.(new URL(current)) || chrome?.rules?.blocks(current)) {
          end(current, false);
          throw new TypeError('Failed to fetch');
        }
        if (init.signal?.aborted) {
          end(current, false);
          throw new DOMException('aborted', 'AbortError');
        }
        served.push(current);
        const route = routes[current];
        if (!route) {
          end(current);
          return withUrl(new Response('not found', { status: 404 }), current, hop > 0);
        }
        if ('to' in route) {
          const next = new URL(route.to, current).href;
          if (init.redirect === 'manual') {
            if (chrome) emit(() => watcher?.onBeforeRedirect(details(current, { ...ip(current), redirectUrl: next })));
            const r = new Response(null, { status: 200 });
            Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
            Object.defineProperty(r, 'status', { value: 0 });
            end(current, false);
            return r;
          }
          current = next;
          continue;
        }
        end(current);
        return withUrl(new Response(route.body, { status: 200, headers: { 'Content-Type': route.type ?? 'text/markdown' } }), current, hop > 0);
      }
      throw new TypeError('Failed to fetch (too many redirects)');
    } finally {
      flush();
    }
  };
  return { fetch, served };
}

function withUrl(r: Response, url: string, redirected: boolean): Response {
  Object.defineProperty(r, 'url', { value: url });
  Object.defineProperty(r, 'redirected', { value: redirected });
  return r;
}
