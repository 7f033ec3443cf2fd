// The options page never shows stale settings (issue 14, item 1): a change saved from a
// second extension page reaches an open options page; an untouched form shows it at once, a
// form with unsaved edits says the settings changed elsewhere and offers to reload, and its
// Save writes only the fields edited there, so the newer values from the other page survive.
import { test, expect, send } from './support/extension';
import type { Page } from '@playwright/test';
import type { Settings } from '../../lib/types';

const CHAT = 'http://127.0.0.1:4555';

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
  await second.locator('#set-paused').check();
  await saveFrom(second);
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
  await second.locator('#set-paused').uncheck();
  await saveFrom(second);
  await first.getByTestId('settings-changed').getByRole('button', { name: 'Reload settings' }).click();
  await expect(first.locator('#set-allowList')).toHaveValue('');
  await expect(first.locator('#set-paused')).not.toBeChecked();
  await expect(first.getByTestId('settings-changed')).toHaveCount(0);
  const after = await send<Settings>(first, { type: 'skillpin:settings-get' });
  expect(after).toMatchObject({ paused: false, allowList: [], denyList: ['https://bank.example'], chatSites: [CHAT] });
});
