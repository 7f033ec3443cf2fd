// A browser's side of a followed fetch, for node: the browser walks the redirect chain itself,
// tells the request watcher about every request (as webRequest does, with one request id across
// the hops), obeys a blocking listener's cancel (Firefox) or its own block rules (Chrome's
// session rules), and answers with a Response whose url and redirected flag it sets.
import type { RequestWatcher } from '../../../lib/net/request-guard';
import type { FetchLike } from '../../../lib/types';

export const EXT_BASE = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';

export type Route = { to: string } | { body: string; type?: string };

export interface SimBrowser {
  fetch: FetchLike;
  /** Every URL the simulated network actually received. */
  served: string[];
}

export function simBrowser(routes: Record<string, Route>, watcher: RequestWatcher | null, opts: { blockedByRules?: (url: URL) => boolean; silent?: boolean } = {}): SimBrowser {
  const served: string[] = [];
  let nextId = 1;
  const fetch: FetchLike = async (url, init) => {
    const requestId = String(nextId++);
    const tell = async (u: string): Promise<boolean> => {
      if (!watcher || opts.silent) return true;
      const answer = await watcher.onBeforeRequest({ requestId, url: u, tabId: -1, initiator: EXT_BASE.slice(0, -1) });
      return !(answer && answer.cancel);
    };
    const end = (u: string): void => {
      if (watcher && !opts.silent) watcher.onEnded({ requestId, url: u, tabId: -1 });
    };
    let current = url;
    for (let hop = 0; hop <= 20; hop++) {
      if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      const allowed = await tell(current);
      if (!allowed || opts.blockedByRules?.(new URL(current))) {
        end(current);
        throw new TypeError('Failed to fetch');
      }
      if (init.signal?.aborted) {
        end(current);
        throw new DOMException('aborted', 'AbortError');
      }
      served.push(current);
      const route = routes[current];
      if (!route) {
        end(current);
        return withUrl(new Response('not found', { status: 404 }), current, hop > 0);
      }
      if ('to' in route) {
        if (init.redirect === 'manual') {
          const r = new Response(null, { status: 200 });
          Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
          Object.defineProperty(r, 'status', { value: 0 });
          end(current);
          return r;
        }
        current = new URL(route.to, current).href;
        continue;
      }
      end(current);
      return withUrl(new Response(route.body, { status: 200, headers: { 'Content-Type': route.type ?? 'text/markdown' } }), current, hop > 0);
    }
    throw new TypeError('Failed to fetch (too many redirects)');
  };
  return { fetch, served };
}

function withUrl(r: Response, url: string, redirected: boolean): Response {
  Object.defineProperty(r, 'url', { value: url });
  Object.defineProperty(r, 'redirected', { value: redirected });
  return r;
}
