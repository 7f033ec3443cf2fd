// Which tab the library acts on. In the browser's side panel it is the active tab of the panel's
// window. Opened as a page in a tab of its own (from a link, or a test), that tab is the active one:
// the panel then acts on the tab of its window the user was in last before it. Where Insert into
// chat goes is decided with the popup's function (components/shared/insert-target.ts).
import { useEffect, useState } from 'preact/hooks';
import { httpOrigin } from '../../lib/origin';
import { insertTarget, type IsChatHost, type TabInfo } from '../shared/insert-target';
import type { ActiveTab, LibraryEnv } from './env';

export interface TabsOfWindow {
  /** The tab the page itself is shown in; undefined in a side panel. */
  getCurrent(): Promise<TabInfo | undefined>;
  /** `{}`: every tab of every window. */
  query(q: { active?: boolean; currentWindow?: true }): Promise<TabInfo[]>;
}

/** The tab to act on, from the active tab, the page's own tab and the tabs of its window. */
export function pickTab(active: TabInfo | undefined, own: TabInfo | undefined, all: readonly TabInfo[]): TabInfo | undefined {
  if (!own || active?.id !== own.id) return active;
  return all.filter((tab) => tab.id !== own.id).sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}

/**
 * The tab as the library shows it: null when it shows no http(s) page. `every`: the tabs of every
 * window, where Insert into chat may go (the popup's rule: this tab when it is a chat, else the
 * chat used last).
 */
export function asActiveTab(tab: TabInfo | undefined, isChatHost: IsChatHost, every: readonly TabInfo[] = tab ? [tab] : []): ActiveTab | null {
  const origin = httpOrigin(tab?.url);
  if (!tab || tab.id === undefined || !origin) return null;
  const host = new URL(origin).host;
  return { tabId: tab.id, origin, host, isChat: isChatHost(new URL(origin).hostname, origin), insert: insertTarget(every, isChatHost, tab.id, null) };
}

export async function findActiveTab(tabs: TabsOfWindow, isChatHost: IsChatHost): Promise<ActiveTab | null> {
  const [own, [active], every] = await Promise.all([tabs.getCurrent(), tabs.query({ active: true, currentWindow: true }), tabs.query({})]);
  const all = own && active?.id === own.id ? await tabs.query({ currentWindow: true }) : [];
  return asActiveTab(pickTab(active, own, all), isChatHost, every);
}

/** The tab the library acts on, followed as the user switches tabs or the tab navigates; undefined while it is first looked up. */
export function useActiveTab(env: LibraryEnv): ActiveTab | null | undefined {
  const [tab, setTab] = useState<ActiveTab | null | undefined>(undefined);
  useEffect(() => {
    let seq = 0;
    const look = () => {
      const n = ++seq;
      env.activeTab().then(
        (found) => n === seq && setTab(found),
        () => n === seq && setTab(null),
      );
    };
    look();
    const stop = env.watchTabs?.(look);
    return () => {
      seq = -1;
      stop?.();
    };
  }, [env]);
  return tab;
}
