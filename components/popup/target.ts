// Which origin the popup is about: ?origin= wins, then ?tab=<id>, then the active tab.
// Also finds a chat tab to insert into. Tab access is injected for tests.
import { chatSiteOrigin } from '../../lib/chat/sites';
import { httpOrigin } from '../../lib/origin';
import { t } from '../../lib/i18n';
import { insertTarget, type ChatTab, type IsChatHost, type TabInfo } from '../shared/insert-target';

export type { ChatTab, IsChatHost, TabInfo };

export interface TabsLike {
  get(tabId: number): Promise<TabInfo>;
  query(queryInfo: { active?: boolean; currentWindow?: boolean }): Promise<TabInfo[]>;
}

export type PopupTarget =
  | { kind: 'origin'; origin: string; tabId: number | null; isChat: boolean }
  /** The tab shows something that is not an http(s) page (new tab, settings, a file). */
  | { kind: 'unsupported'; url: string | null }
  | { kind: 'error'; message: string };

/**
 * The chat-site check: a host a built-in adapter knows, or an origin in the user's
 * "Other chat sites" (Settings.chatSites, compared as exact origins: scheme, host and port).
 */
export function chatSiteCheck(isKnownHost: (hostname: string) => boolean, chatSites: readonly unknown[]): IsChatHost {
  // The same rule the background applies right before it inserts (built-in hosts over https only).
  return (_hostname, origin) => chatSiteOrigin(origin, chatSites, isKnownHost) !== null;
}

/** Whether the http(s) `origin` is a chat site. */
const isChatOrigin = (origin: string, isChatHost: IsChatHost): boolean => isChatHost(new URL(origin).hostname, origin);

function fromTab(tab: TabInfo | undefined, isChatHost: IsChatHost): PopupTarget {
  const origin = httpOrigin(tab?.url);
  if (!tab || !origin) return { kind: 'unsupported', url: tab?.url ?? null };
  return { kind: 'origin', origin, tabId: tab.id ?? null, isChat: isChatOrigin(origin, isChatHost) };
}

export async function resolveTarget(search: string, tabs: TabsLike, isChatHost: IsChatHost): Promise<PopupTarget> {
  const params = new URLSearchParams(search);
  const originParam = params.get('origin');
  if (originParam !== null) {
    const origin = httpOrigin(originParam);
    if (!origin || origin !== originParam.replace(/\/$/, '')) return { kind: 'error', message: t('err_not_http_origin', originParam) };
    return { kind: 'origin', origin, tabId: null, isChat: isChatOrigin(origin, isChatHost) };
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

/** The target with its chat-site flag worked out by `isChatHost` (the flag resolveTarget would have set). */
export function withChatCheck(target: PopupTarget, isChatHost: IsChatHost): PopupTarget {
  if (target.kind !== 'origin') return target;
  return { ...target, isChat: isChatOrigin(target.origin, isChatHost) };
}

/**
 * A chat tab to insert into: the given tab when it is a chat site, else the most recently
 * used chat tab of `preferOrigin` (the popup's own origin), else the most recently used
 * chat tab of any window. Null when none is open. The side panel asks the same function
 * (components/shared/insert-target.ts).
 */
export async function findChatTab(tabs: TabsLike, isChatHost: IsChatHost, preferTabId: number | null = null, preferOrigin: string | null = null): Promise<ChatTab | null> {
  try {
    return insertTarget(await tabs.query({}), isChatHost, preferTabId, preferOrigin);
  } catch {
    return null;
  }
}
