// "Other chat sites" in real headless Chromium: the mock chat page on 127.0.0.1 is no
// site the adapters know; once its origin is in Settings.chatSites, the popup's own
// "Insert into chat" buttons put the exact skill context into its composer (the
// background injects the chat content script) and nothing is sent.
import type { Page } from '@playwright/test';
import { test, expect, send, tabIdOf, waitForReport } from './support/extension';
import { startPublisher, startChat, seed } from './support/sites';
import type { OriginReport, Settings } from '../../lib/types';
import { insertItemId } from '../../lib/background/menus';
import type { ActionResult, ContextResult } from '../../lib/messages';

async function setChatSites(extPage: Page, chatSites: string[]): Promise<void> {
  const settings = await send<Settings>(extPage, { type: 'skillpin:settings-get' });
  const res = await send<ActionResult>(extPage, { type: 'skillpin:settings-set', settings: { ...settings, chatSites } });
  expect(res.ok).toBe(true);
  expect((await send<Settings>(extPage, { type: 'skillpin:settings-get' })).chatSites).toEqual(chatSites);
}

/** Visits the publisher, approves its skill named `name`, and returns its URL and context. */
async function approveSkill(page: Page, extPage: Page, origin: string, name: string): Promise<{ url: string; context: string }> {
  await page.goto(origin + '/');
  const report = await waitForReport<OriginReport>(extPage, origin);
  const skill = report.skills.find((s) => s.name === name);
  if (!skill?.url || !skill.actual) throw new Error(`${name} missing`);
  const approved = await send<ActionResult>(extPage, { type: 'skillpin:approve', origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false });
  expect(approved.ok).toBe(true);
  const ctx = await send<ContextResult>(extPage, { type: 'skillpin:skill-context', origin, url: skill.url });
  if (!ctx.ok) throw new Error(ctx.message);
  return { url: skill.url, context: ctx.context };
}

/** What every composer of the mock chat holds, as the editors themselves see it. */
async function composers(chatPage: Page): Promise<Record<string, string>> {
  return chatPage.evaluate(() => {
    const hook = (window as unknown as { mockChat: { model(name: string): string } }).mockChat;
    return Object.fromEntries(['textarea', 'prosemirror', 'quill', 'lexical'].map((n) => [n, hook.model(n)]));
  });
}

test('a user chat site: the popup for a publisher inserts an approved skill into it', async ({ context, sw, extPage, extensionId }) => {
  const site = await startPublisher({ seed: seed(21) });
  const chat = await startChat();
  try {
    await setChatSites(extPage, [chat.origin]);
    const skill = await approveSkill(await context.newPage(), extPage, site.origin, 'search-docs');

    // The chat tab is opened and left as a user leaves it: nothing in it has focus.
    const chatPage = await context.newPage();
    await chatPage.goto(chat.origin + '/index.html');
    expect(await chatPage.evaluate(() => document.activeElement === document.body)).toBe(true);

    // The insert menu exists for the approved skill (update rejects unknown ids).
    await expect
      .poll(() =>
        sw.evaluate(
          (id) =>
            chrome.contextMenus.update(id, {}).then(
              () => true,
              () => false,
            ),
          insertItemId(site.origin, skill.url),
        ),
      )
      .toBe(true);

    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
    const card = popup.locator(`[data-skill-url="${skill.url}"]`).first();
    const insert = card.getByRole('button', { name: 'Insert into chat' });
    await expect(insert).toBeVisible();
    await insert.click();
    await expect(popup.getByText(/then send it yourself/).first()).toBeVisible();

    await expect.poll(() => chatPage.locator('#composer-textarea').inputValue()).toBe(skill.context);
    const held = await composers(chatPage);
    expect(held).toEqual({ textarea: skill.context, prosemirror: '', quill: '', lexical: '' });
    expect(await chatPage.locator('#send-count').textContent()).toBe('0');
  } finally {
    await site.close();
    await chat.close();
  }
});

test('the popup on a user chat site shows the chat view, and its Insert works', async ({ context, sw, extPage, extensionId }) => {
  const site = await startPublisher({ seed: seed(22) });
  const chat = await startChat();
  try {
    const skill = await approveSkill(await context.newPage(), extPage, site.origin, 'api-client');
    const chatPage = await context.newPage();
    await chatPage.goto(chat.origin + '/index.html');
    const chatTab = await tabIdOf(sw, chatPage);
    const popup = await context.newPage();

    // Not a chat site yet: the popup shows the page's own (absent) skills, no chat view.
    await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${chatTab}`);
    await expect(popup.locator('[data-testid="empty"], [data-testid="skipped"], [data-testid="probe-error"]').first()).toBeVisible();
    await expect(popup.locator('[data-testid="chat-panel"]')).toHaveCount(0);

    await setChatSites(extPage, [chat.origin]);
    await popup.reload();
    const panel = popup.locator('[data-testid="chat-panel"]');
    await expect(panel).toBeVisible();
    const item = panel.locator(`[data-skill-url="${skill.url}"]`);
    await expect(item.getByText('api-client', { exact: true })).toBeVisible();
    await expect(item.getByText(site.origin, { exact: false })).toBeVisible();
    await item.getByRole('button', { name: /insert/i }).click();
    await expect(popup.getByText(/then send it yourself/).first()).toBeVisible();
    await expect.poll(() => chatPage.locator('#composer-textarea').inputValue()).toBe(skill.context);
    expect(await composers(chatPage)).toEqual({ textarea: skill.context, prosemirror: '', quill: '', lexical: '' });
    expect(await chatPage.locator('#send-count').textContent()).toBe('0');

    // Opened for the chat origin instead of its tab: the same chat view, inserting into that tab.
    const byOrigin = await context.newPage();
    await byOrigin.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(chat.origin)}`);
    await expect(byOrigin.locator(`[data-testid="chat-panel"] [data-skill-url="${skill.url}"] [data-action="insert"]`)).toBeVisible();
  } finally {
    await site.close();
    await chat.close();
  }
});
