// The extension-API side of the background: badge, notifications, tabs, menus,
// clipboard and insertion, for Chrome's service worker and Firefox's event page.
import { browser } from 'wxt/browser';
import type { BackgroundPlatform } from '@/lib/background/service';
import { COPY_MENU_ID, INSERT_MENU_ID, type MenuModel } from '@/lib/background/menus';
import { copyViaOffscreen, copyViaTab } from '@/lib/clipboard/offscreen';
import type { InsertResult } from '@/lib/messages';

function isInsertResult(v: unknown): v is InsertResult {
  return typeof v === 'object' && v !== null && typeof (v as { ok?: unknown }).ok === 'boolean' && typeof (v as { method?: unknown }).method === 'string';
}

let menuQueue: Promise<void> = Promise.resolve();

async function applyMenus(model: MenuModel): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({ id: COPY_MENU_ID, title: model.copyTitle, contexts: ['page', 'selection', 'link'], visible: model.copyVisible });
  if (model.insertItems.length > 0) {
    // Built-in chat sites plus the user's chat sites (menus.ts: one pattern per host, any port).
    const documentUrlPatterns = [...model.insertPatterns];
    browser.contextMenus.create({ id: INSERT_MENU_ID, title: 'Insert skill context', contexts: ['editable'], documentUrlPatterns });
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
  async listTabs() {
    const tabs = await browser.tabs.query({});
    return tabs.filter((t) => typeof t.id === 'number').map((t) => ({ id: t.id as number, url: t.url ?? null, incognito: t.incognito }));
  },
  async insertIntoTab(tabId, text) {
    const message = { type: 'skillpin:content-insert', text };
    try {
      const r: unknown = await browser.tabs.sendMessage(tabId, message);
      if (isInsertResult(r)) return r;
    } catch {
      // No chat content script in that tab yet: inject it and try once more.
    }
    try {
      await browser.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/chat.js'] });
      const r: unknown = await browser.tabs.sendMessage(tabId, message);
      if (isInsertResult(r)) return r;
    } catch (err) {
      return { ok: false, method: 'none', message: `Could not reach the chat page: ${err instanceof Error ? err.message : String(err)}` };
    }
    return { ok: false, method: 'none', message: 'The chat page did not answer.' };
  },
  async copyText(text, tabId) {
    if (import.meta.env.BROWSER === 'chrome' && 'offscreen' in browser) {
      try {
        if (await copyViaOffscreen(browser, text)) return true;
      } catch {
        // fall through to the tab
      }
    }
    return tabId === null ? false : copyViaTab(browser, tabId, text);
  },
  updateMenus(model) {
    menuQueue = menuQueue.then(() => applyMenus(model)).catch(() => undefined);
    return menuQueue;
  },
  async getLocal(key) {
    const got = await browser.storage.local.get(key);
    return got[key];
  },
  async setLocal(key, value) {
    await browser.storage.local.set({ [key]: value });
  },
};
