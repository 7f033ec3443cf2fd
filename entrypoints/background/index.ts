// Wiring only: every listener is registered synchronously at the top of main(),
// so an event that wakes the worker is never missed; the behaviour is in lib/. Nothing here is
// for tests: they wait for the `skillpin:ready` message (or see the listeners registered) and
// reach the background through its messages and the browser's own events.
import { browser } from 'wxt/browser';
import { createBackgroundService, REVALIDATE_ALARM } from '@/lib/background/service';
import { openTrustStore } from '@/lib/trust/idb-store';
import { createIncognitoTabs } from './incognito-tabs';
import { browserPlatform } from './platform';
import { installRequestGuard } from './request-guard';
import { createLoadGate } from '@/lib/scheduler/load-gate';
import { startE2eRecord } from './e2e-record';
import { LIBRARY_MENU_ID } from '@/lib/background/menus';
import { OPEN_LIBRARY_COMMAND, openLibrary } from './library-panel';

/** A page that never finishes loading holds its probe this long at most. */
const LOAD_CAP_MS = 5000;

export default defineBackground(() => {
  // The end-to-end build only: the listeners registered below, for tests to call (e2e-record.ts).
  // Production builds have no such code: the constant is false there and the branch is dropped.
  const e2e = import.meta.env.SKILLPIN_E2E ? startE2eRecord(browser) : null;
  const extensionBase = browser.runtime.getURL('/');
  const loadGate = createLoadGate({
    capMs: LOAD_CAP_MS,
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    ...(e2e ? { onEvent: e2e.onGateEvent } : {}),
  });
  if (e2e) e2e.loadGate = loadGate;
  const service = createBackgroundService({
    loadGate,
    openStore: () => openTrustStore(),
    fetch: (url, init) => fetch(url, init),
    guard: installRequestGuard(extensionBase),
    clock: { now: () => Date.now() },
    platform: browserPlatform,
    runtimeId: browser.runtime.id,
    extensionBase,
    version: browser.runtime.getManifest().version,
  });

  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    return service.handleMessage(message, sender);
  });

  // Private tabs are known from tab events (incognito-tabs.ts), so a navigation does not wait
  // for a tabs.get before its probe; private-window probing stays off unless settings allow it.
  const incognitoTabs = createIncognitoTabs({
    query: (q) => browser.tabs.query(q),
    get: (tabId) => browser.tabs.get(tabId),
  });
  browser.tabs.onCreated.addListener((tab) => incognitoTabs.onCreated(tab));
  browser.tabs.onRemoved.addListener((tabId) => {
    incognitoTabs.onRemoved(tabId);
    loadGate.closed(tabId);
    service.onTabClosed(tabId);
  });
  browser.tabs.onReplaced.addListener((addedTabId, removedTabId) => incognitoTabs.onReplaced(addedTabId, removedTabId));

  browser.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId !== 0) return;
    // Noted at once: the page's load event may come before the probe's own checks are done.
    loadGate.committed(details.tabId, details.url);
    void incognitoTabs
      .isIncognito(details.tabId)
      .then((incognito) => service.onNavigation(details.tabId, details.url, incognito))
      .catch(() => undefined);
  });

  browser.webNavigation.onCompleted.addListener((details) => {
    if (details.frameId === 0) loadGate.loaded(details.tabId, details.url);
  });

  browser.tabs.onActivated.addListener(({ tabId }) => {
    void browser.tabs
      .get(tabId)
      .then((tab) => service.onTabActivated(tabId, tab.url ?? null))
      .catch(() => undefined);
  });

  // An administrator changed the policy (docs/policies.md): read it again and tell open pages.
  browser.storage.onChanged.addListener((_changes, area) => {
    if (area === 'managed') void service.onManagedChanged().catch(() => undefined);
  });

  // The user changed Skillpin's site access (the popup's Allow, the browser's extension menu or page).
  browser.permissions.onAdded.addListener((p) => {
    void service.onAccessChanged(p.origins ?? []).catch(() => undefined);
  });
  browser.permissions.onRemoved.addListener(() => {
    void service.onAccessChanged([]).catch(() => undefined);
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    void service.onAlarm(alarm.name);
  });

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

  browser.runtime.onInstalled.addListener(() => {
    void browser.alarms.create(REVALIDATE_ALARM, { periodInMinutes: 60 });
    void service.refreshMenus(null);
  });
  browser.runtime.onStartup.addListener(() => {
    void browser.alarms.create(REVALIDATE_ALARM, { periodInMinutes: 60 });
    void service.refreshMenus(null);
  });

  // Listeners are all registered: learn the open tabs' private flags once, in the background.
  void incognitoTabs.seed();
});
