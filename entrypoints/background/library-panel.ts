// Opening the side panel's library: the popup's "All my skills", the context menu's "Open all my
// skills beside the page" and, in Chrome, the keyboard shortcut of the `open-library` command (Firefox opens its
// sidebar itself for `_execute_sidebar_action`). Both browsers open a panel only in answer to the
// user's own action, so the call is made at once in the listener, before anything is awaited.
import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n';

/** The command whose shortcut opens the library in Chrome (wxt.config.ts `commands`). */
export const OPEN_LIBRARY_COMMAND = 'open-library';

type SidebarAction = { open(): Promise<void> };

/** Opens the library beside the pages of `windowId` (Chrome's side panel, Firefox's sidebar). */
export function openLibrary(windowId: number | undefined): Promise<void> {
  if (import.meta.env.BROWSER === 'firefox') {
    const sidebar = (browser as unknown as { sidebarAction?: SidebarAction }).sidebarAction;
    return sidebar ? sidebar.open() : Promise.resolve();
  }
  if (windowId === undefined) return Promise.reject(new Error(t('library_no_window')));
  return browser.sidePanel.open({ windowId });
}
