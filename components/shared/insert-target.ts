// Where "Insert into chat" goes: one answer for the popup and the side panel.
// Both ask this function with the tab they are about and the browser's tabs, and both name the
// tab it picks (its title and site), so neither says "no chat here" while the other inserts.
import { httpOrigin } from '../../lib/origin';

export interface TabInfo {
  id?: number;
  url?: string;
  title?: string;
  active?: boolean;
  lastAccessed?: number;
}

/** Whether a page is a chat site, given its hostname and its exact origin. */
export type IsChatHost = (hostname: string, origin: string) => boolean;

/** The chat tab Insert goes to. */
export interface ChatTab {
  tabId: number;
  /** The tab's title, or its host when it has none. */
  title: string;
  /** Host and port, as the address bar shows them. */
  host: string;
  origin: string;
}

function chatTabOf(tab: TabInfo, isChatHost: IsChatHost): ChatTab | null {
  const origin = httpOrigin(tab.url);
  if (tab.id === undefined || origin === null) return null;
  const url = new URL(origin);
  if (!isChatHost(url.hostname, origin)) return null;
  return { tabId: tab.id, title: tab.title || url.host, host: url.host, origin };
}

/**
 * The tab Insert into chat goes to: the tab the surface is about (`aboutTabId`) when it shows a chat
 * site; else the chat tab of `aboutOrigin` used last; else the chat tab used last in any window.
 * Null when no chat is open.
 */
export function insertTarget(all: readonly TabInfo[], isChatHost: IsChatHost, aboutTabId: number | null = null, aboutOrigin: string | null = null): ChatTab | null {
  let best: { chat: ChatTab; rank: [number, number, number] } | null = null;
  for (const tab of all) {
    const chat = chatTabOf(tab, isChatHost);
    if (!chat) continue;
    const rank: [number, number, number] = [Number(chat.tabId === aboutTabId), Number(chat.origin === aboutOrigin), tab.lastAccessed ?? 0];
    if (!best || rank[0] > best.rank[0] || (rank[0] === best.rank[0] && (rank[1] > best.rank[1] || (rank[1] === best.rank[1] && rank[2] > best.rank[2])))) best = { chat, rank };
  }
  return best?.chat ?? null;
}
