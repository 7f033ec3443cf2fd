// Site access the user limits, in real Firefox ESR (PRODUCT.md §2.1): Firefox grants an MV3
// extension's host permissions at install but lets the user revoke them; here they are removed at
// run time (permissions.remove from an extension page, as the add-on's Permissions page does).
// Skillpin then requests nothing from the site, the popup says it cannot read it, and its
// "Allow on this site" (a real click; the permission prompt is switched off for the run) grants the
// site again, after which the site is probed at once.
import { test, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { ensureFirefoxBuild, ffSend, ffWaitForReport, launchFirefox, newProfileDir, openExtensionPage, removeProfileDir } from './support';
import { startPublisher, seed } from '../support/sites';
import type { OriginReport } from '../../../lib/types';

test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureFirefoxBuild());

const DISCOVERY = ['/llms.txt', '/.well-known/agent-skills/index.json', '/.well-known/skills/index.json'];

type Perms = { permissions: { remove(p: object): Promise<boolean>; contains(p: object): Promise<boolean> } };
const perms = (page: Page, op: 'remove' | 'contains', origins: string[]) =>
  page.evaluate((o, which) => (globalThis as unknown as { browser: Perms }).browser.permissions[which as 'remove' | 'contains']({ origins: o }), origins, op);

test('Firefox: host permissions revoked at run time: nothing requested, the popup says so, "Allow on this site" brings the site back', async () => {
  const site = await startPublisher({ seed: seed(33) });
  const profileDir = newProfileDir();
  // Without the prompt a permission request from a click is granted (the user's answer, for the test).
  const ff = await launchFirefox(profileDir, { prefs: { 'extensions.webextOptionalPermissionPrompts': false } });
  try {
    const ext = await openExtensionPage(ff, 'options.html');
    expect(await perms(ext, 'remove', ['http://*/*', 'https://*/*'])).toBe(true);
    expect(await perms(ext, 'contains', ['http://127.0.0.1/*'])).toBe(false);

    const page = await ff.browser.newPage();
    await page.goto(site.origin + '/');
    await expect.poll(async () => (await ffSend<OriginReport | null>(ext, { type: 'skillpin:report', origin: site.origin }))?.skippedBecause, { timeout: 15_000 }).toBe('no-site-access');
    expect(await ffSend<OriginReport>(ext, { type: 'skillpin:probe', origin: site.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access' });
    expect(site.server.log.filter((r) => DISCOVERY.includes(r.path))).toEqual([]);

    const popup = await openExtensionPage(ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
    await popup.waitForSelector('[data-testid="skipped"] [data-action="allow-site"]');
    expect(await popup.$eval('[data-testid="skipped"]', (e) => e.textContent)).toContain("Skillpin can't read this site");
    await popup.click('[data-action="allow-site"]');
    await popup.waitForSelector('[data-skill-url]', { timeout: 20_000 });
    expect(await perms(ext, 'contains', ['http://127.0.0.1/*'])).toBe(true);
    expect(site.server.log.filter((r) => DISCOVERY.includes(r.path)).length).toBeGreaterThan(0);
    const report = await ffWaitForReport<OriginReport>(ext, site.origin);
    expect(report.state).toBe('done');
    expect(report.skills.length).toBe(5);
  } finally {
    await ff.close();
    removeProfileDir(profileDir);
    await site.close();
  }
});
