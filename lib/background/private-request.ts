// Whether a probe asked for by an extension page is about a private window (PRODUCT.md §2.1,
// FORMATS.md §9.1: never probe in private windows unless the user enabled it). The answer comes
// from the browser's own tab list, never from the request: the request only names which tab it
// is about, and that tab counts only while it shows the origin asked for.
import { httpOrigin } from '../origin';
import type { BackgroundPlatform } from './deps';
import type { SenderLike } from './sender';

/** An open tab with its private flag, as the browser lists them. */
export type TabFlag = Awaited<ReturnType<BackgroundPlatform['listTabs']>>[number];

/**
 * True when the request must be treated as coming from a private window:
 * - the sending page itself is in a private tab (the browser's `sender.tab`), or
 * - the tab the request names (`tabId`) shows `origin` and is private, or
 * - no open tab the request names shows `origin`, and some private tab shows it (a toolbar popup
 *   sends its tab; without one, an origin open in a private window is treated as private).
 * `tabs` is every open tab with its private flag, as the browser lists them.
 */
export function isPrivateRequest(tabs: readonly TabFlag[], origin: string, tabId: number | undefined, sender: SenderLike): boolean {
  const senderTabId = sender.tab?.id;
  if (sender.tab?.incognito === true) return true;
  if (typeof senderTabId === 'number' && tabs.some((t) => t.id === senderTabId && t.incognito)) return true;
  const named = tabs.filter((t) => (t.id === tabId || t.id === senderTabId) && httpOrigin(t.url) === origin);
  if (named.length > 0) return named.some((t) => t.incognito);
  return tabs.some((t) => t.incognito && httpOrigin(t.url) === origin);
}
