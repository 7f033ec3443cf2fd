// Approving through the pages as the user does: Approve, then the one confirmation when the skill
// asks one (what it can do, an unverified skill, another host). `done` is what the page shows once
// the skill is approved (the card's Copy, the library's row ready again).
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import type { OriginReport } from '../../../lib/types';
import { send } from './extension';

/** The confirmation dialog of the page. */
export const confirmation = (page: Page): Locator => page.locator('[role="alertdialog"]');

/** Clicks `approve`; when the confirmation opens, confirms it. Returns whether it opened. */
export async function approveThrough(page: Page, approve: Locator, done: Locator): Promise<boolean> {
  await approve.click();
  const dialog = confirmation(page);
  await expect(dialog.or(done).first()).toBeVisible();
  if (!(await dialog.isVisible())) return false;
  await dialog.locator('.dialog-actions button.btn-danger').click();
  await expect(dialog).toHaveCount(0);
  await expect(done.first()).toBeVisible();
  return true;
}

/** Approves one skill with the popup's own Approve button (and its one confirmation, when asked), and waits until it is approved. */
export async function approveInPopup(ctx: BrowserContext, extensionId: string, origin: string, name: string): Promise<void> {
  const popup = await ctx.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(origin)}`);
  const card = popup.locator('[data-skill-url]', { hasText: name }).first();
  await approveThrough(popup, card.getByRole('button', { name: /approve/i }), card.locator('[data-action="copy"]'));
  await expect.poll(async () => (await send<OriginReport>(popup, { type: 'skillpin:report', origin }))?.skills.find((s) => s.name === name)?.approval.state).toBe('approved');
  await popup.close();
}
