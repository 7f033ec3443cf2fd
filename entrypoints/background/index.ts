// Wiring only: every listener is registered synchronously at the top of main(),
// so an event that wakes the worker is never missed; the behaviour is in lib/. Nothing here is
// for tests: they wait for the `skillpin:ready` message (or see the listeners registered) and
// reach the background through its messages and the browser's own events.
import { browser } from 'wxt/browser';
import { createBackgroundService, REVALIDATE_ALARM } from '@/lib/background/service';
import { openTrustStore } from '@/lib/store/idb-store';
import { browserPlatform } from './platform';
import { installRequestGuard } from './request-guard';
import { createPageEvents } from '@/lib/background/page-events';
import { startE2eRecord } from './e2e-record';
import { LIBRARY_MENU_ID } from '@/lib/background/menus';
import { OPEN_LIBRARY_COMMAND, openLibrary } from './library-panel';
import { acceptCarrier } from './native';

/**
 * The navigation events' URL filter: http(s) documents only. A listener with a filter is not
 * called for other URLs, nor is a stopped worker started for them (about:blank and srcdoc frames,
 * data:, the browser's own pages).
 */
const WEB_PAGES = { url: [{ schemes: ['http', 'https'] }] };

export default defineBackground(() => {
  // The end-to-end build only: the listeners registered below, for tests to call (e2e-record.ts).
  // Production builds have no such code: the constant is false there and the branch is dropped.
  const e2e = import.meta.env.SKILLPIN_E2E ? startE2eRecord(browser) : null;
  const extensionBase = browser.runtime.getURL('/');
  const service = createBackgroundService({
    openStore: () => openTrustStore(),
    fetch: (url, init) => fetch(url, init),
    guard: installRequestGuard(extensionBase),
    clock: { now: () => Date.now() },
    platform: browserPlatform,
    runtimeId: browser.runtime.id,
    extensionBase,
    version: browser.runtime.getManifest().version,
  });

  browser.runtime.onMessage.addListener((message: unknown, sender) => service.handleMessage(message, sender));
  // The options page carries the native port until this worker has its own (native.ts).
  browser.runtime.onConnect.addListener((port) => acceptCarrier(port));

  // Nothing of a page's load wakes the worker before its load event (lib/background/page-events.ts):
  // no tabs.onCreated, webNavigation.onCommitted or tabs.onActivated listener. The navigation is
  // handled at the top frame's load event, or when its load stopped before it; the tab's private
  // flag is read then (tabs.get). Badges are set per tab, so a tab switch needs no handler; the
  // copy menu item shows on its origins' pages by its own URL patterns.
  const pages = createPageEvents({
    getTab: (tabId) => browser.tabs.get(tabId),
    onNavigation: (tabId, url, incognito) => service.onNavigation(tabId, url, incognito),
    ...(e2e ? { onEvent: e2e.onNavEvent } : {}),
  });
  browser.webNavigation.onCompleted.addListener((details) => void pages.loaded(details), WEB_PAGES);
  browser.webNavigation.onErrorOccurred.addListener((details) => void pages.failed(details), WEB_PAGES);
  browser.tabs.onRemoved.addListener((tabId) => service.onTabClosed(tabId));

  // An administrator changed the policy (docs/policies.md): read it again and tell open pages.
  browser.storage.onChanged.addListener((_changes, area) => {
    if (area === 'managed') void service.onManagedChanged().catch(() => undefined);
  });

  // The user changed Skillpin's site access (the popup's Allow, the browser's extension menu or page).
  browser.permissions.onAdded.addListener((p) => void service.onAccessChanged(p.origins ?? []).catch(() => undefined));
  browser.permissions.onRemoved.addListener(() => void service.onAccessChanged([]).catch(() => undefined));

  browser.alarms.onAlarm.addListener((alarm) => void service.onAlarm(alarm.name));

  browser.contextMenus.onClicked.addListener((info, tab) => {
    // Opened in the click's own turn: the browsers open a panel only in answer to the user.
    if (info.menuItemId === LIBRARY_MENU_ID) return void openLibrary(tab?.windowId).catch(() => undefined);
    void service.onMenuClick(String(info.menuItemId), tab ?? null, info.frameId ?? 0);
  });

  // Chrome's shortcut for the library (Firefox handles its _execute_sidebar_action itself).
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === OPEN_LIBRARY_COMMAND) void openLibrary(tab?.windowId).catch(() => undefined);
  });

  browser.notifications.onClicked.addListener((id) => {
    const origin = service.onNotificationClick(id);
    if (!origin) return;
    void browser.tabs.create({ url: browser.runtime.getURL(`/popup.html?origin=${encodeURIComponent(origin)}`) });
    void browser.notifications.clear(id);
  });

  const started = (): void => {
    void browser.alarms.create(REVALIDATE_ALARM, { periodInMinutes: 60 });
    void service.refreshMenus();
  };
  browser.runtime.onInstalled.addListener(started);
  browser.runtime.onStartup.addListener(started);
});
