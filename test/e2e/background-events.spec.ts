// The background's own listeners, reached the way the browser reaches them: the toolbar popup
// opened for real (chrome.action.openPopup, not popup.html?origin=), the revalidation alarm as the
// install and start-up listeners create it and as alarms.onAlarm receives it, and a right click in
// a frame inside a chat page, delivered with that frame's id to the contextMenus.onClicked listener
// (support/listeners.ts: no test can click a native menu).
import type { Page, Worker } from '@playwright/test';
import { test, expect, send, tabIdOf, waitForReport } from './support/extension';
import { clickMenuItem, fireStartup } from './support/listeners';
import { startPublisher, seed, visitAndApproveFirst } from './support/sites';
import { startServer } from '../support/server';
import { DEMO_SKILLS } from '../../scripts/lib/publisher-site.mjs';
import { REVALIDATE_ALARM } from '../../lib/background/events';
import { insertItemId } from '../../lib/background/menus';
import type { OriginReport, Settings } from '../../lib/types';
import type { ActionResult, ContextResult } from '../../lib/messages';

/** Makes the tab the active one of its window, as a user's click on it does (tabs.onActivated). */
async function activate(sw: Worker, tabId: number): Promise<void> {
  await sw.evaluate(async (id) => {
    const tab = await chrome.tabs.update(id, { active: true });
    if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true });
  }, tabId);
}

/** What the open toolbar popup shows: its address, the origin in its header, its skill cards. */
async function toolbarPopup(extPage: Page): Promise<{ href: string; origin: string | null; cards: number } | null> {
  return extPage.evaluate(() => {
    const [view] = chrome.extension.getViews({ type: 'popup' }) as unknown as globalThis.Window[];
    if (!view) return null;
    const doc = view.document;
    return { href: view.location.href, origin: doc.querySelector('[data-testid="origin"]')?.textContent ?? null, cards: doc.querySelectorAll('[data-skill-url]').length };
  });
}

test('the toolbar popup opens on the active tab and lists that site, for whichever tab is active', async ({ context, sw, extPage, extensionId }) => {
  const a = await startPublisher({ seed: seed(60) });
  const b = await startPublisher({ seed: seed(61), skills: DEMO_SKILLS.slice(0, 2) });
  try {
    const pageA = await context.newPage();
    await pageA.goto(a.origin + '/');
    const pageB = await context.newPage();
    await pageB.goto(b.origin + '/');
    await waitForReport(extPage, a.origin);
    await waitForReport(extPage, b.origin);
    for (const [page, site, skills] of [
      [pageA, a, DEMO_SKILLS.length],
      [pageB, b, 2],
      [pageA, a, DEMO_SKILLS.length],
    ] as const) {
      await activate(sw, await tabIdOf(sw, page));
      await sw.evaluate(() => chrome.action.openPopup());
      // The popup Chromium opened is the toolbar one (a POPUP context), at the manifest's address.
      const popups = await sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['POPUP'] })).map((c) => c.documentUrl));
      expect(popups).toEqual([`chrome-extension://${extensionId}/popup.html`]);
      await expect.poll(() => toolbarPopup(extPage)).toEqual({ href: `chrome-extension://${extensionId}/popup.html`, origin: site.origin, cards: skills });
      await extPage.evaluate(() => {
        for (const view of chrome.extension.getViews({ type: 'popup' }) as unknown as globalThis.Window[]) view.close();
      });
      await expect.poll(() => sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['POPUP'] })).length)).toBe(0);
    }
  } finally {
    await a.close();
    await b.close();
  }
});

test('the revalidation alarm: made at install and at start-up, and when it fires the approved origins are checked again', async ({ context, sw, extPage }) => {
  // Install (a fresh profile): the hourly alarm is there.
  await expect.poll(() => sw.evaluate((name) => chrome.alarms.get(name).then((a) => a?.periodInMinutes ?? null), REVALIDATE_ALARM)).toBe(60);
  // Start-up: gone (alarms may be cleared when the browser restarts), the start-up listener makes it again.
  await sw.evaluate((name) => chrome.alarms.clear(name), REVALIDATE_ALARM);
  expect(await sw.evaluate((name) => chrome.alarms.get(name).then((a) => a ?? null), REVALIDATE_ALARM)).toBeNull();
  await fireStartup(sw);
  await expect.poll(() => sw.evaluate((name) => chrome.alarms.get(name).then((a) => a?.periodInMinutes ?? null), REVALIDATE_ALARM)).toBe(60);

  const site = await startPublisher({ seed: seed(62) });
  try {
    await visitAndApproveFirst(context, extPage, site);
    const settledAt = (await waitForReport<OriginReport>(extPage, site.origin)).finishedAt ?? 0;

    // The alarm, due now (the same name and period): Chromium fires it into alarms.onAlarm, and
    // the approved origin is probed again (a new report; its documents may come from the cache).
    await sw.evaluate((name) => chrome.alarms.create(name, { when: Date.now() + 200, periodInMinutes: 60 }), REVALIDATE_ALARM);
    await expect.poll(async () => (await waitForReport<OriginReport>(extPage, site.origin)).finishedAt ?? 0, { timeout: 20_000 }).toBeGreaterThan(settledAt);
    // It goes on every hour.
    expect(await sw.evaluate((name) => chrome.alarms.get(name).then((a) => a?.periodInMinutes ?? null), REVALIDATE_ALARM)).toBe(60);
  } finally {
    await site.close();
  }
});

test('a right click in a chat frame inside the page inserts into that frame, by the frame id the click names', async ({ context, sw, extPage }) => {
  const site = await startPublisher({ seed: seed(63) });
  const chat = await startServer({
    files: {
      '/index.html': '<!doctype html><title>chat</title><textarea id="top"></textarea><iframe id="frame" src="/frame.html"></iframe>',
      '/frame.html': '<!doctype html><title>composer</title><textarea id="inner"></textarea>',
    },
  });
  try {
    const { skill } = await visitAndApproveFirst(context, extPage, site);
    const ctx = await send<ContextResult>(extPage, { type: 'skillpin:skill-context', origin: site.origin, url: skill.url });
    if (!ctx.ok) throw new Error(ctx.message);
    // The page is a chat site once the user lists it (Options → Other chat sites).
    const settings = await send<Settings>(extPage, { type: 'skillpin:settings-get' });
    expect((await send<ActionResult>(extPage, { type: 'skillpin:settings-set', settings: { ...settings, chatSites: [chat.origin] } })).ok).toBe(true);

    const page = await context.newPage();
    await page.goto(chat.origin + '/index.html');
    const inner = page.frameLocator('#frame').locator('#inner');
    await inner.focus();
    const tabId = await tabIdOf(sw, page);
    const frameId = await sw.evaluate(async ({ id, url }) => (await chrome.webNavigation.getAllFrames({ tabId: id }))?.find((f) => f.url === url)?.frameId ?? -1, {
      id: tabId,
      url: `${chat.origin}/frame.html`,
    });
    expect(frameId).toBeGreaterThan(0);
    const item = insertItemId(site.origin, skill.url);
    await expect
      .poll(() =>
        sw.evaluate(
          (id) =>
            chrome.contextMenus.update(id, {}).then(
              () => true,
              () => false,
            ),
          item,
        ),
      )
      .toBe(true);

    // Opened in the frame: the frame's composer gets the skill, the page's own stays empty.
    await clickMenuItem(sw, { menuItemId: item, tabId, frameId, editable: true });
    await expect.poll(() => inner.inputValue()).toBe(ctx.context);
    expect(await page.locator('#top').inputValue()).toBe('');
    // Opened in the page itself (frame 0): the page's composer gets it, the frame keeps its one copy.
    await page.locator('#top').focus();
    await clickMenuItem(sw, { menuItemId: item, tabId, frameId: 0, editable: true });
    await expect.poll(() => page.locator('#top').inputValue()).toBe(ctx.context);
    expect(await inner.inputValue()).toBe(ctx.context);
  } finally {
    await site.close();
    await chat.close();
  }
});
