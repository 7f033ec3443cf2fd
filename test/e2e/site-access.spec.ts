// Site access the user limits, in a real Chromium (PRODUCT.md §2.1): the profile withholds the
// extension's host permissions as the extensions page leaves them ("On click": no site; "On specific
// sites": the listed ones). Skillpin then requests nothing from a site it may not read, the report and
// the popup say so in their own words (never "publishes no skills"), and a site the user allowed is
// probed as usual.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page, type Worker } from '@playwright/test';
import { EXTENSION_DIR, launch, send, tabIdOf, waitForReport } from './support/extension';
import { startPublisher, seed, type PublisherSite } from './support/sites';
import { clickToolbarIcon } from './support/toolbar';
import { unpackedExtensionId, withholdSiteAccess } from '../../scripts/lib/chromium.mjs';
import type { OriginReport } from '../../lib/types';
import type { SiteAccessSummary } from '../../lib/messages';

const DISCOVERY = ['/llms.txt', '/.well-known/agent-skills/index.json', '/.well-known/skills/index.json'];

let site: PublisherSite;
let profileDir: string;

test.beforeEach(async () => {
  site = await startPublisher({ seed: seed(31) });
  profileDir = mkdtempSync(join(tmpdir(), 'skillpin-e2e-access-'));
});

test.afterEach(async () => {
  await site.close();
  rmSync(profileDir, { recursive: true, force: true });
});

async function extensionPage(context: import('@playwright/test').BrowserContext, id: string, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${id}/${path}`);
  return page;
}

/** Discovery requests the site has had (the page itself is served from / and is not one). */
const probesOf = (s: PublisherSite) => s.server.log.filter((r) => DISCOVERY.includes(r.path));

async function titleOf(sw: Worker, tabId: number): Promise<string> {
  return sw.evaluate((id) => chrome.action.getTitle({ tabId: id }), tabId);
}

test('"On click" (no site granted): nothing is requested, the popup says Skillpin cannot read the site and offers to allow it', async () => {
  const id = unpackedExtensionId(EXTENSION_DIR);
  withholdSiteAccess(profileDir, id, []);
  const { context, sw } = await launch(profileDir);
  try {
    expect(await sw.evaluate(() => chrome.permissions.contains({ origins: ['http://127.0.0.1/*'] }))).toBe(false);
    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const tabId = await tabIdOf(sw, page);
    await expect.poll(() => titleOf(sw, tabId), { timeout: 15_000 }).toMatch(/no site access/);
    const ext = await extensionPage(context, id, 'options.html');
    const report = await send<OriginReport>(ext, { type: 'skillpin:probe', origin: site.origin, tabId });
    expect(report).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access' });
    expect(await send<OriginReport>(ext, { type: 'skillpin:report', origin: site.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access' });
    expect(probesOf(site)).toEqual([]);
    expect(await send<SiteAccessSummary>(ext, { type: 'skillpin:site-access', origin: site.origin })).toEqual({ all: false, sites: [], origin: { origin: site.origin, readable: false } });
    await expect(ext.locator('[data-testid="site-access"]')).toHaveAttribute('data-access', 'none');

    const popup = await extensionPage(context, id, `popup.html?origin=${encodeURIComponent(site.origin)}`);
    const skipped = popup.locator('[data-testid="skipped"]');
    await expect(skipped).toContainText("Skillpin can't read this site");
    await expect(skipped).not.toContainText('publishes no skills');
    await expect(popup.locator('[data-action="allow-site"]')).toBeVisible();
    await expect(popup.locator('[data-action="allow-all"]')).toBeVisible();
    expect(probesOf(site)).toEqual([]);
  } finally {
    await context.close();
  }
});

test('"On specific sites": the allowed site is probed as usual, another one is not', async () => {
  const id = unpackedExtensionId(EXTENSION_DIR);
  // The same server as `localhost` is another site, not granted.
  withholdSiteAccess(profileDir, id, ['http://127.0.0.1/*']);
  const { context, sw } = await launch(profileDir);
  try {
    const ext = await extensionPage(context, id, 'options.html');
    await expect(ext.locator('[data-testid="site-access"]')).toHaveAttribute('data-access', 'some');
    await expect(ext.locator('[data-testid="site-access-sites"]')).toContainText('http://127.0.0.1/*');
    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const report = await waitForReport<OriginReport>(ext, site.origin);
    expect(report.state).toBe('done');
    expect(report.skills.length).toBeGreaterThan(0);
    const before = probesOf(site).length;
    expect(before).toBeGreaterThan(0);

    const other = `http://localhost:${site.server.port}`;
    const otherPage = await context.newPage();
    await otherPage.goto(other + '/');
    const otherTab = await tabIdOf(sw, otherPage);
    await expect.poll(() => titleOf(sw, otherTab), { timeout: 15_000 }).toMatch(/no site access/);
    expect(await send<OriginReport>(ext, { type: 'skillpin:probe', origin: other, tabId: otherTab })).toMatchObject({ state: 'skipped', skippedBecause: 'no-site-access' });
    expect(probesOf(site).length).toBe(before);
  } finally {
    await context.close();
  }
});

test('"On click": the toolbar click lets Skillpin read that tab\'s site, the popup lists its skills, and the grant ends when the tab leaves the site', async () => {
  const id = unpackedExtensionId(EXTENSION_DIR);
  withholdSiteAccess(profileDir, id, []);
  const { context, sw } = await launch(profileDir);
  try {
    // Opened first: a tab opened after the click would close the popup before it probes.
    const ext = await extensionPage(context, id, 'options.html');
    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const tabId = await tabIdOf(sw, page);
    await expect.poll(() => titleOf(sw, tabId), { timeout: 15_000 }).toMatch(/no site access/);
    expect(probesOf(site)).toEqual([]);
    await page.bringToFront();
    await clickToolbarIcon(context, id, page);
    // The popup opened over the tab notes the click; its probe reads the site under the click's grant.
    await expect.poll(async () => (await send<OriginReport | null>(ext, { type: 'skillpin:report', origin: site.origin }))?.state, { timeout: 20_000 }).toBe('done');
    const report = await send<OriginReport>(ext, { type: 'skillpin:report', origin: site.origin });
    expect(report.skills.length).toBe(5);
    expect(report.skills.every((s) => s.status === 'verified-signed')).toBe(true);
    expect(probesOf(site).length).toBeGreaterThan(0);
    // Still no permission the browser reports: the grant lasts while the tab stays on the site.
    expect(await sw.evaluate(() => chrome.permissions.contains({ origins: ['http://127.0.0.1/*'] }))).toBe(false);
    await page.goto(`http://localhost:${site.server.port}/`);
    await expect.poll(async () => (await send<OriginReport>(ext, { type: 'skillpin:probe', origin: site.origin })).skippedBecause).toBe('no-site-access');
  } finally {
    await context.close();
  }
});
