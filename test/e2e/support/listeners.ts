// Browser events no test can cause, delivered to the listener functions the background
// registered for them. The end-to-end build records each function it registers
// (entrypoints/background/e2e-record.ts); these helpers call them in the service worker with
// what the browser would pass: the real tab, the frame's real id and URL, the notification's
// real id. The work itself goes through the same wiring as a user's click.
import type { Worker } from '@playwright/test';

/** Calls every listener the background registered for `event`, in the worker, with `args`. */
async function callListeners(sw: Worker, event: string, args: unknown[]): Promise<void> {
  await sw.evaluate(
    ({ event, args }) => {
      const record = globalThis.skillpinTest;
      if (!record) throw new Error('this extension is not the end-to-end build (SKILLPIN_E2E_BUILD=1): no listeners are recorded');
      const listeners = record.listeners[event] ?? [];
      if (listeners.length === 0) throw new Error(`the background registered no ${event} listener`);
      for (const fn of listeners) (fn as (...a: unknown[]) => void)(...args);
    },
    { event, args },
  );
}

export interface MenuClick {
  menuItemId: string;
  tabId: number;
  /** The frame the menu was opened in (0: the top frame). */
  frameId?: number;
  /** A right-click in an editable field (the "Insert skill context" items show only there). */
  editable?: boolean;
}

/**
 * A context-menu click, as Chromium delivers it: the item must exist (update rejects unknown
 * ids), the click data name the page, the frame and its URL, and the tab is the real one.
 */
export async function clickMenuItem(sw: Worker, click: MenuClick): Promise<void> {
  const { info, tab } = await sw.evaluate(
    async ({ menuItemId, tabId, frameId, editable }) => {
      await chrome.contextMenus.update(menuItemId, {});
      const tab = await chrome.tabs.get(tabId);
      const frame = frameId === 0 ? null : await chrome.webNavigation.getFrame({ tabId, frameId });
      if (frameId !== 0 && !frame) throw new Error(`tab ${tabId} has no frame ${frameId}`);
      return { info: { menuItemId, editable, frameId, pageUrl: tab.url ?? '', ...(frame ? { frameUrl: frame.url } : {}) }, tab };
    },
    { menuItemId: click.menuItemId, tabId: click.tabId, frameId: click.frameId ?? 0, editable: click.editable ?? false },
  );
  await callListeners(sw, 'contextMenus.onClicked', [info, tab]);
}

/** A click on a notification the extension shows now (it must be among chrome.notifications.getAll()). */
export async function clickNotification(sw: Worker, notificationId: string): Promise<void> {
  const shown = await sw.evaluate(() => chrome.notifications.getAll());
  if (!(notificationId in shown)) throw new Error(`no notification ${notificationId} is shown`);
  await callListeners(sw, 'notifications.onClicked', [notificationId]);
}

/** runtime.onStartup, which Chromium never fires for an extension loaded with --load-extension. */
export async function fireStartup(sw: Worker): Promise<void> {
  await callListeners(sw, 'runtime.onStartup', []);
}

/** The navigations the background handled (at a load event, or a stopped load), oldest first. */
export async function navTrace(sw: Worker): Promise<{ kind: string; tabId: number; url: string }[]> {
  return sw.evaluate(() => {
    const record = globalThis.skillpinTest;
    if (!record) throw new Error('this extension is not the end-to-end build (SKILLPIN_E2E_BUILD=1): no trace is recorded');
    return record.navTrace;
  });
}

/** The events the background registered a listener for at its top level ("tabs.onRemoved" …). */
export async function recordedEvents(sw: Worker): Promise<string[]> {
  return sw.evaluate(() => {
    const record = globalThis.skillpinTest;
    if (!record) throw new Error('this extension is not the end-to-end build (SKILLPIN_E2E_BUILD=1): no listeners are recorded');
    return Object.keys(record.listeners).filter((k) => (record.listeners[k]?.length ?? 0) > 0);
  });
}
