// Approving through the pages as the user does: Approve, then the one confirmation when the skill
// asks one (what it can do, an unverified skill, another host). `done` is what the page shows once
// the skill is approved (the card's Copy, the library's row ready again).
import { expect, type Locator, type Page } from '@playwright/test';

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
