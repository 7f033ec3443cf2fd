// Firefox's side of TOOLCHAIN.md "Withheld site access": once the user takes the host permission
// back (permissions.remove at run time, as the add-ons manager does per site), a tab's address is
// hidden from an extension without `tabs` and shown to one with it. The extension is the minimal
// one of test/e2e/fixtures/site-access-probe/ with Skillpin's host permissions, installed as a
// temporary add-on; its page is opened from a loopback page as support.ts explains.
import { test, expect } from '@playwright/test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIREFOX } from './support';
import { PROBE_GECKO_ID, PROBE_UUID, probeExtension } from '../support/site-access-probe';
import { startServer, type TestServer } from '../../support/server';

test.describe.configure({ timeout: 120_000 });

/** The extension's page, opened from a loopback page (BiDi may not open moz-extension:// itself). */
async function extensionPage(browser: Browser, launcher: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(launcher);
  const target = `moz-extension://${PROBE_UUID}/popup.html`;
  await page.evaluate((u) => {
    location.href = u;
  }, target);
  await expect.poll(() => page.evaluate(() => (document.readyState === 'complete' ? location.href : '')).catch(() => '')).toBe(target);
  return page;
}

const tabUrls = (page: Page) =>
  page.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ url?: string }[]> } } }).chrome;
    return (await api.tabs.query({})).map((t) => t.url ?? null).filter((u) => !u?.startsWith('moz-extension:'));
  });

let server: TestServer;
test.beforeAll(async () => {
  server = await startServer({ files: { '/index.html': '<!doctype html><title>site</title><p>site</p>' } });
});
test.afterAll(async () => {
  await server?.close();
});

test('Firefox: with the host permission taken back, a tab address is hidden without `tabs` and shown with it', async () => {
  const site = `http://site.grant.test:${server.port}/`;
  for (const permissions of [['webNavigation'], ['webNavigation', 'tabs']]) {
    const extDir = probeExtension(mkdtempSync(join(tmpdir(), 'skillpin-ff-probe-')), permissions, 'firefox');
    const profile = mkdtempSync(join(tmpdir(), 'skillpin-ff-probe-profile-'));
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [PROBE_GECKO_ID]: PROBE_UUID }), 'network.dns.forceResolve': '127.0.0.1', 'network.dns.disableIPv6': true },
    });
    try {
      await browser.installExtension(extDir);
      // The first tab shows the site; the only other tab becomes the extension's page.
      const [tab] = await browser.pages();
      await (tab ?? (await browser.newPage())).goto(site);
      const ext = await extensionPage(browser, server.url('/index.html'));
      const contains = () =>
        ext.evaluate((o) => (globalThis as unknown as { chrome: { permissions: { contains(p: object): Promise<boolean> } } }).chrome.permissions.contains({ origins: [o] }), `${site}*`);
      expect(await contains(), 'granted at install').toBe(true);
      expect(await tabUrls(ext)).toEqual([site]);
      await ext.evaluate(() => (globalThis as unknown as { chrome: { permissions: { remove(p: object): Promise<boolean> } } }).chrome.permissions.remove({ origins: ['http://*/*', 'https://*/*'] }));
      expect(await contains()).toBe(false);
      expect(await tabUrls(ext), permissions.join()).toEqual(permissions.includes('tabs') ? [site] : [null]);
    } finally {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
      rmSync(extDir, { recursive: true, force: true });
    }
  }
});
