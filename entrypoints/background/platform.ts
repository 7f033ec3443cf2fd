// The extension-API side of the background: badge, notifications, tabs, menus,
// clipboard and insertion, for Chrome's service worker and Firefox's event page.
import { browser } from 'wxt/browser';
import type { BackgroundPlatform } from '@/lib/background/service';
import { INSERT_MENU_ID, LIBRARY_MENU_ID, type MenuModel } from '@/lib/background/menus';
import { copyViaOffscreen } from '@/lib/clipboard/offscreen';
import { writeClipboard } from '@/lib/clipboard/write';
import { nativeMessaging } from './native';

let menuQueue: Promise<void> = Promise.resolve();

function tabFlags(tabs: { id?: number; url?: string; incognito: boolean }[]): { id: number; url: string | null; incognito: boolean }[] {
  return tabs.filter((t) => typeof t.id === 'number').map((t) => ({ id: t.id as number, url: t.url ?? null, incognito: t.incognito }));
}

async function applyMenus(model: MenuModel): Promise<void> {
  await browser.contextMenus.removeAll();
  for (const item of model.copyItems) {
    browser.contextMenus.create({ id: item.id, title: item.title, contexts: ['page', 'selection', 'link'], documentUrlPatterns: item.patterns });
  }
  // The side panel's library, from any page and from the toolbar button's own menu.
  browser.contextMenus.create({ id: LIBRARY_MENU_ID, title: model.libraryTitle, contexts: ['page', 'editable', 'action'] });
  if (model.insertItems.length > 0) {
    // Built-in chat sites plus the user's chat sites (menus.ts: one pattern per host, any port).
    const documentUrlPatterns = [...model.insertPatterns];
    browser.contextMenus.create({ id: INSERT_MENU_ID, title: model.insertTitle, contexts: ['editable'], documentUrlPatterns });
    for (const item of model.insertItems) {
      browser.contextMenus.create({ id: item.id, parentId: INSERT_MENU_ID, title: item.title, contexts: ['editable'], documentUrlPatterns });
    }
  }
}

export const browserPlatform: BackgroundPlatform = {
  async setBadge(tabId, badge) {
    await Promise.all([
      browser.action.setBadgeText({ tabId, text: badge.text }),
      browser.action.setBadgeBackgroundColor({ tabId, color: badge.color }),
      browser.action.setTitle({ tabId, title: badge.title }),
    ]);
  },
  async notify(id, title, message) {
    await browser.notifications.create(id, { type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message, priority: 2 });
  },
  listTabs: async () => tabFlags(await browser.tabs.query({})),
  activeTabs: async () => tabFlags(await browser.tabs.query({ active: true })),
  async frameUrl({ tabId, frameId }) {
    if (frameId === 0) return (await browser.tabs.get(tabId)).url ?? null;
    return (await browser.webNavigation.getFrame({ tabId, frameId }))?.url ?? null;
  },
  async sendToFrame({ tabId, frameId }, message) {
    try {
      return await browser.tabs.sendMessage(tabId, message, { frameId });
    } catch (err) {
      // No chat content script in that frame yet (a user chat site): inject it and try once more.
      if (message.type !== 'skillpin:content-insert') throw err;
    }
    await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['/content-scripts/chat.js'] });
    return browser.tabs.sendMessage(tabId, message, { frameId });
  },
  async copyText(text) {
    // Chrome: the offscreen document. Firefox: the background page's own document. Never a
    // web page, where a copy event listener could rewrite what lands on the clipboard.
    if (import.meta.env.BROWSER === 'chrome') return 'offscreen' in browser ? copyViaOffscreen(browser, text).catch(() => false) : false;
    return typeof document === 'undefined' ? false : writeClipboard(text, document);
  },
  updateMenus(model) {
    menuQueue = menuQueue.then(() => applyMenus(model)).catch(() => undefined);
    return menuQueue;
  },
  getLocal: async (key) => (await browser.storage.local.get(key))[key],
  setLocal: async (key, value) => browser.storage.local.set({ [key]: value }),
  getSession: async (key) => (await browser.storage.session.get(key))[key],
  setSession: async (key, value) => browser.storage.session.set({ [key]: value }),
  // Chrome's toolbar click grants the tab's origin to the worker (TOOLCHAIN.md §7); Firefox's is not relied on.
  clickGrantsAccess: import.meta.env.BROWSER === 'chrome',
  permissions: {
    contains: (patterns) => browser.permissions.contains({ origins: patterns }),
    grantedOrigins: async () => (await browser.permissions.getAll()).origins ?? [],
  },
  native: nativeMessaging,
  async getManaged() {
    // Chrome: the values of the managed_schema (wxt.config.ts), {} without a policy. Firefox:
    // the enterprise policy's "3rdparty" data; without one it rejects ("Managed storage
    // manifest not found"), which means no policy. Any other failure is passed on: the
    // service then tries again rather than running as if no policy were set.
    try {
      return await browser.storage.managed.get();
    } catch (err) {
      if (/manifest not found/i.test(err instanceof Error ? err.message : String(err))) return undefined;
      throw err;
    }
  },
};
