// The extension in the browser's language: Chromium started with German as
// its UI language (--lang=de, LANGUAGE=de) shows the popup, the badge title and the settings
// page from _locales/de. The other suites run in English.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, badgeText, tabIdOf, waitForReport, launch } from './support/extension';
import { startPublisher, seed } from './support/sites';
import type { OriginReport } from '../../lib/types';

test('in a German browser the popup, the badge title and the settings page speak German', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'skillpin-e2e-de-'));
  const site = await startPublisher({ seed: seed(41) });
  const { context, sw, extensionId } = await launch(profile, ['--lang=de'], { env: { LANGUAGE: 'de', LANG: 'de_DE.UTF-8' }, locale: 'de-DE' });
  try {
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await expect(options).toHaveTitle('Skillpin-Einstellungen');
    await expect(options.locator('html')).toHaveAttribute('lang', 'de');
    await expect(options.getByRole('heading', { name: 'Gespeicherte Schlüssel' })).toBeVisible();

    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const report = await waitForReport<OriginReport>(options, site.origin);
    expect(report.skills.map((s) => s.status)).toEqual(Array(5).fill('verified-signed'));
    const tabId = await tabIdOf(sw, page);
    await expect.poll(() => badgeText(sw, tabId)).toBe('5');
    await expect.poll(() => sw.evaluate((id) => chrome.action.getTitle({ tabId: id }), tabId)).toBe('Skillpin: 5 verwendbare Skills');

    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
    await expect(popup.locator('html')).toHaveAttribute('lang', 'de');
    await expect(popup.getByTestId('summary')).toHaveText('5 Skills · 5 verwendbar · 0 freigegeben');
    await expect(popup.getByText('Mit dem Schlüssel der Website signiert').first()).toBeVisible();
    await expect(popup.getByRole('button', { name: 'Freigeben' }).first()).toBeVisible();
    // No English status word is left on the page.
    expect(await popup.locator('body').innerText()).not.toMatch(/Verified|Approve\b|Details of/);

    // Approving: the message, the date and the actions in German.
    const first = popup.locator('[data-skill-url]').first();
    await first.getByRole('button', { name: 'Freigeben' }).click();
    await expect(popup.getByTestId('announcer')).toContainText('freigegeben');
    await expect(first.getByText(/^Freigegeben am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)).toBeVisible();
    await expect(first.locator('[data-action="withdraw"]')).toHaveText('Freigabe zurückziehen');
    await expect(first.getByRole('button', { name: 'Skill-Kontext kopieren' })).toBeVisible();
    // The details: one verdict, the evidence folded, nothing English from the engine, no ISO date or UTC.
    await first.locator('[data-action="details"]').click();
    await expect(popup.getByTestId('verdict')).toContainText('Die Datei entspricht der Prüfsumme');
    await popup.getByText('Wie Skillpin das geprüft hat').click();
    await expect(popup.getByTestId('signature-state')).toHaveText('Signiert: Die Signatur passt zum Schlüssel der Website.');
    const details = await popup.locator('.details').innerText();
    expect(details).not.toMatch(/Digest matches|Verified under|Matched form|\bUTC\b|\d{4}-\d{2}-\d{2}|Approved|Withdraw|Copy skill/);

    // Withdrawing: the message with its Undo in German.
    await popup.locator('.details [data-action="withdraw"]').click();
    await expect(popup.getByTestId('announcer')).toContainText('zurückgezogen');
    await expect(popup.locator('.message').getByRole('button', { name: 'Rückgängig' })).toBeVisible();
  } finally {
    await context.close();
    await site.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
