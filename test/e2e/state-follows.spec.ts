// State that follows changes made elsewhere: an approval imported in the options page reaches a popup
// that is already open on the site, without Re-check: the background announces the change, the
// popup reads the report again and gets the one the import's probe made.
import { test, expect, send, tabIdOf, waitForReport } from './support/extension';
import { startPublisher, seed } from './support/sites';
import { writeBackup } from '../../lib/store/backup/write';
import type { Approval, OriginReport, Pin } from '../../lib/types';

test('an import in the options page that adds an approval updates the open popup without Re-check', async ({ context, extPage, extensionId }) => {
  const site = await startPublisher({ seed: seed(61) });
  try {
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    const report = await waitForReport<OriginReport>(extPage, site.origin);
    const skill = report.skills[0]!;
    const pinned = report.key.pinned!;
    const tabId = await tabIdOf(context.serviceWorkers()[0]!, page);

    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
    await expect(popup.getByTestId('summary')).toContainText('0 approved');
    const card = popup.locator(`[data-skill-url="${skill.url}"]`);
    await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();

    // A file exported from another browser: this site's key and an approval of its first skill.
    const pin: Pin = { origin: site.origin, key: pinned.key, fingerprint: pinned.fingerprint, firstSeen: 1, lastSeen: 2 };
    const approval: Approval = {
      origin: site.origin,
      url: skill.url!,
      digestLf: skill.actual!.lf,
      digestRaw: skill.actual!.raw,
      keyFingerprint: pinned.fingerprint,
      statusAtApproval: 'verified-signed',
      name: skill.name,
      approvedAt: Date.parse('2026-01-05T10:00:00Z'),
    };
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await options.locator('#import-text').fill(writeBackup([pin], [approval], Date.now()));
    await options.locator('[data-action="import"]').click();
    await expect(options.getByTestId('import-preview-counts')).toHaveText('Importing will add 1 approval.');
    await options.locator('[data-action="import-confirm"]').click();
    await expect(options.getByTestId('import-result')).toContainText('1 approval added');

    // The popup, untouched since it opened: the approval is there, Approve is not.
    await expect(popup.getByTestId('summary')).toContainText('1 approved');
    await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Copy skill context' })).toBeVisible();
    await expect(card.locator('[data-action="withdraw"]')).toHaveText('Withdraw approval');
    expect((await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' })).map((a) => a.url)).toEqual([skill.url]);
  } finally {
    await site.close();
  }
});
