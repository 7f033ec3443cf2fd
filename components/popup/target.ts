// Which origin the popup is about: ?origin= wins, then ?tab=<id>, then the active tab.
// Also finds a chat tab to insert into. Tab access is injected for tests.

export interface TabInfo {
  id?: number;
  url?: string;
  title?: string;
  active?: boolean;
  lastAccessed?: number;
}

export interface TabsLike {
  get(tabId: number): Promise<TabInfo>;
  query(queryInfo: { active?: boolean; currentWindow?: boolean }): Promise<TabInfo[]>;
}

export type IsChatHost = (hostname: string) => boolean;

export interface ChatTab {
  tabId: number;
  title: string;
  host: string;
}

export type PopupTarget =
  | { kind: 'origin'; origin: string; tabId: number | null; isChat: boolean }
  /** The tab shows something that is not an http(s) page (new tab, settings, a file). */
  | { kind: 'unsupported'; url: string | null }
  | { kind: 'error'; message: string };

/** The origin of an http(s) URL, or null. */
export function httpOrigin(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function hostOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
}

function fromTab(tab: TabInfo | undefined, isChatHost: IsChatHost): PopupTarget {
  if (!tab) return { kind: 'unsupported', url: null };
  const origin = httpOrigin(tab.url);
  if (!origin) return { kind: 'unsupported', url: tab.url ?? null };
  const host = hostOf(tab.url);
  return { kind: 'origin', origin, tabId: tab.id ?? null, isChat: host !== null && isChatHost(host) };
}

export async function resolveTarget(search: string, tabs: TabsLike, isChatHost: IsChatHost): Promise<PopupTarget> {
  const params = new URLSearchParams(search);
  const originParam = params.get('origin');
  if (originParam !== null) {
    const origin = httpOrigin(originParam);
    if (!origin || origin !== originParam.replace(/\/$/, '')) return { kind: 'error', message: `Not an http(s) origin: ${originParam}` };
    return { kind: 'origin', origin, tabId: null, isChat: isChatHost(new URL(origin).hostname) };
  }
  try {
    const tabParam = params.get('tab');
    if (tabParam !== null) {
      const id = Number(tabParam);
      if (!Number.isInteger(id) || id < 0) return { kind: 'error', message: `Not a tab id: ${tabParam}` };
      return fromTab(await tabs.get(id), isChatHost);
    }
    const [active] = await tabs.query({ active: true, currentWindow: true });
    return fromTab(active, isChatHost);
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * A chat tab to insert into: the given tab when it is a chat site, else the most
 * recently used chat tab of any window. Null when none is open.
 */
export async function findChatTab(tabs: TabsLike, isChatHost: IsChatHost, preferTabId: number | null = null): Promise<ChatTab | null> {
  let all: TabInfo[];
  try {
    all = await tabs.query({});
  } catch {
    return null;
  }
  const chats: (ChatTab & { last: number; preferred: boolean })[] = [];
  for (const tab of all) {
    const host = hostOf(tab.url);
    if (tab.id === undefined || host === null || httpOrigin(tab.url) === null || !isChatHost(host)) continue;
    chats.push({ tabId: tab.id, title: tab.title || host, host, last: tab.lastAccessed ?? 0, preferred: tab.id === preferTabId });
  }
  chats.sort((a, b) => Number(b.preferred) - Number(a.preferred) || b.last - a.last);
  const best = chats[0];
  return best ? { tabId: best.tabId, title: best.title, host: best.host } : null;
}
