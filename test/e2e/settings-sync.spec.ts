// The options page never shows stale settings: a change saved from a
// second extension page reaches an open options page; an untouched form shows it at once, a
// form with unsaved edits says the settings changed elsewhere and offers to reload, and its
// Save writes only the fields edited there, so the newer values from the other page survive.
import { test, expect, send } from './support/extension';
import type { Page } from '@playwright/test';
import type { Settings } from '../../lib/types';

const CHAT = 'http://127.0.0.1:4555';

/**
 * Another page changes a setting without taking the focus from the first page: a list box applies
 * its edit when it is left, and clicking in another page would leave it.
 */
async function pauseFrom(page: Page, on: boolean): Promise<void> {
  await send(page, { type: 'skillpin:settings-update', changes: { paused: on } });
  await expect(page.locator('#set-paused')).toBeChecked({ checked: on });
}

async function saveFrom(page: Page): Promise<void> {
  await page.locator('[data-action="save-settings"]').click();
  await expect(page.getByTestId('announcer')).toContainText('Settings saved');
}

test('an open options page follows settings saved from another page, and its Save keeps them', async ({ context, extensionId }) => {
  const optionsUrl = `chrome-extension://${extensionId}/options.html`;
  const first = await context.newPage();
  await first.goto(optionsUrl);
  await expect(first.locator('#set-chatSites')).toHaveValue('');

  // A second page adds a chat site; the first, untouched, shows it without a reload.
  const second = await context.newPage();
  await second.goto(optionsUrl);
  await second.locator('#set-chatSites').fill(CHAT);
  await saveFrom(second);
  await expect(first.locator('#set-chatSites')).toHaveValue(CHAT);
  await expect(first.getByTestId('settings-changed')).toHaveCount(0);

  // The first page now holds an unsaved edit when the second pauses probing.
  await first.locator('#set-denyList').fill('https://bank.example');
  await pauseFrom(second, true);
  const notice = first.getByTestId('settings-changed');
  await expect(notice).toContainText('changed elsewhere');
  await expect(notice.getByRole('button', { name: 'Reload settings' })).toBeVisible();
  // The edit is still there, and the other page's change is not silently folded into the form.
  await expect(first.locator('#set-denyList')).toHaveValue('https://bank.example');
  await expect(first.locator('#set-paused')).not.toBeChecked();

  // Save on the first page: its deny list is written, the second page's values survive.
  await saveFrom(first);
  const stored = await send<Settings>(first, { type: 'skillpin:settings-get' });
  expect(stored.denyList).toEqual(['https://bank.example']);
  expect(stored.chatSites).toEqual([CHAT]);
  expect(stored.paused).toBe(true);
  await expect(first.getByTestId('settings-changed')).toHaveCount(0);
  await expect(first.locator('#set-paused')).toBeChecked();
  // And the second page, untouched since its save, follows the first page's save.
  await expect(second.locator('#set-denyList')).toHaveValue('https://bank.example');

  // Reload: the edits go, the newer settings show.
  await first.locator('#set-allowList').fill('https://docs.example');
  await pauseFrom(second, false);
  await first.getByTestId('settings-changed').getByRole('button', { name: 'Reload settings' }).click();
  await expect(first.locator('#set-allowList')).toHaveValue('');
  await expect(first.locator('#set-paused')).not.toBeChecked();
  await expect(first.getByTestId('settings-changed')).toHaveCount(0);
  const after = await send<Settings>(first, { type: 'skillpin:settings-get' });
  expect(after).toMatchObject({ paused: false, allowList: [], denyList: ['https://bank.example'], chatSites: [CHAT] });
});

test('a tick applies at once: ticking "Pause" and reloading keeps it; a list being typed makes the page ask before it is left', async ({ context, extensionId }) => {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await page.locator('#set-paused').check();
  await expect(page.getByTestId('announcer')).toContainText('Saved: Pause');
  await page.reload();
  await expect(page.locator('#set-paused')).toBeChecked();
  expect((await send<Settings>(page, { type: 'skillpin:settings-get' })).paused).toBe(true);

  // An edit still in its box: the bar stays in view and leaving asks first.
  await page.locator('#set-denyList').fill('not a site');
  await expect(page.getByTestId('settings-unsaved')).toBeInViewport();
  let asked = false;
  page.once('dialog', (dialog) => {
    asked = dialog.type() === 'beforeunload';
    void dialog.dismiss();
  });
  // A page's beforeunload is honoured only after the user interacted with it (the fill did).
  await page.reload({ timeout: 3000 }).catch(() => undefined);
  expect(asked).toBe(true);
  await expect(page.locator('#set-denyList')).toHaveValue('not a site');
});
