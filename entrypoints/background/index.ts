// Wiring only: every listener is registered synchronously at the top of main(),
// so an event that wakes the worker is never missed; the behaviour is in lib/.
import { browser } from 'wxt/browser';
import { createBackgroundService, REVALIDATE_ALARM } from '@/lib/background/service';
import { openTrustStore } from '@/lib/trust/idb-store';
import { browserPlatform } from './platform';

declare global {
  // Readiness signal and test hooks (TOOLCHAIN.md "Race"): tests await `self.skillpinReady`.
  var skillpinReady: Promise<true> | undefined;
  var skillpin: ReturnType<typeof createBackgroundService> | undefined;
}

export default defineBackground(() => {
  const service = createBackgroundService({
    openStore: () => openTrustStore(),
    fetch: (url, init) => fetch(url, init),
    clock: { now: () => Date.now() },
    platform: browserPlatform,
    runtimeId: browser.runtime.id,
    extensionBase: browser.runtime.getURL('/'),
    version: browser.runtime.getManifest().version,
  });
  globalThis.skillpin = service;
  globalThis.skillpinReady = service.ready.then(() => true as const);

  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    return service.handleMessage(message, sender);
  });

  browser.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId !== 0) return;
    void browser.tabs
      .get(details.tabId)
      .then((tab) => service.onNavigation(details.tabId, details.url, tab.incognito))
      .catch(() => undefined);
  });

  browser.tabs.onActivated.addListener(({ tabId }) => {
    void browser.tabs
      .get(tabId)
      .then((tab) => service.onTabActivated(tabId, tab.url ?? null))
      .catch(() => undefined);
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    void service.onAlarm(alarm.name);
  });

  browser.contextMenus.onClicked.addListener((info, tab) => {
    void service.onMenuClick(String(info.menuItemId), tab ?? null);
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
});
