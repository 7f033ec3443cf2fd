// When a navigation is handled (docs/design/ARCHITECTURE.md): once its page has loaded, never
// while it loads. The background listens to no event of a page's load before its load event (no
// tab creation, no commit, no activation), so a stopped worker is not started, nor a running one
// busied, while the page competes for the machine. It hears the top frame's load event
// (webNavigation.onCompleted), or the end of a load that stopped before it (onErrorOccurred with
// net::ERR_ABORTED on the document the tab shows: the user's Stop, window.stop()). Whether the tab
// is private is read from the browser's own tab (tabs.get) when the event is handled: a tab whose
// facts cannot be read (closed meanwhile) is not probed, since it cannot be told apart.
import { httpOrigin } from '../origin';
import type { OriginReport } from '../types';

/** What webNavigation tells of a frame's load event or error. */
export interface PageEventDetails {
  tabId: number;
  frameId: number;
  url: string;
  /** onErrorOccurred only: the network error (`net::ERR_ABORTED` for a stopped load). */
  error?: string;
}

/** The browser's facts about a tab (tabs.get). */
export interface TabFacts {
  url?: string;
  incognito: boolean;
}

export type NavEvent = { kind: 'load' | 'stopped'; tabId: number; url: string };

export interface PageEventsDeps {
  getTab(tabId: number): Promise<TabFacts>;
  onNavigation(tabId: number, url: string, incognito: boolean): Promise<OriginReport | null>;
  /** Each navigation handled, for the end-to-end build's trace. */
  onEvent?(event: NavEvent): void;
}

/** `loaded`: webNavigation.onCompleted; `failed`: webNavigation.onErrorOccurred. */
export type PageEvents = Record<'loaded' | 'failed', (details: PageEventDetails) => Promise<OriginReport | null>>;

/** A load stopped after its document committed (not a navigation that failed or was replaced before it). */
export const STOPPED_LOAD_ERROR = 'net::ERR_ABORTED';

export function createPageEvents(deps: PageEventsDeps): PageEvents {
  async function handle(kind: NavEvent['kind'], details: PageEventDetails): Promise<OriginReport | null> {
    if (details.frameId !== 0 || httpOrigin(details.url) === null) return null;
    if (kind === 'stopped' && details.error !== STOPPED_LOAD_ERROR) return null;
    const tab = await deps.getTab(details.tabId).catch(() => null);
    if (tab === null) return null;
    // A stopped load counts only when the tab shows the very document that stopped: an aborted
    // navigation that never committed (a download, a 204, a newer navigation) left the tab elsewhere.
    if (kind === 'stopped' && tab.url !== details.url) return null;
    deps.onEvent?.({ kind, tabId: details.tabId, url: details.url });
    return deps.onNavigation(details.tabId, details.url, tab.incognito === true);
  }
  return {
    loaded: (details) => handle('load', details).catch(() => null),
    failed: (details) => handle('stopped', details).catch(() => null),
  };
}
