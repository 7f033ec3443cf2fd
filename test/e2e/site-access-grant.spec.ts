// What Chromium gives an extension whose site access the user withheld ("On click", the state the
// extensions page leaves; TOOLCHAIN.md "Withheld site access"), before and after the user clicks its
// toolbar icon. The click is CDP's Extensions.triggerAction, the same entry point as the toolbar
// button. Two extensions: a minimal one with Skillpin's host permissions (with and without `tabs`,
// test/e2e/fixtures/site-access-probe/), and Skillpin's own build for what its worker may fetch.
// The sites are public-looking names mapped onto the 127.0.0.1 test server.
import { test, expect, chromium, type BrowserContext, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extensionArgs, unpackedExtensionId, withholdSiteAccess } from '../../scripts/lib/chromium.mjs';
import { clickToolbarIcon } from './support/toolbar';
import { CHROMIUM, EXTENSION_DIR, launch } from './support/extension';
import { probeExtension } from './support/site-access-probe';
import { startServer, type TestServer } from '../support/server';

const RESOLVER = '--host-resolver-rules=MAP *.grant.test 127.0.0.1';

async function workerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? (await context.waitForEvent('serviceworker'));
}

/** Titles of the extension's open popup pages (CDP lists them; Playwright's pages() does not). */
async function popupTitles(context: BrowserContext, extensionId: string): Promise<string[]> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser session');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  return targetInfos.filter((t) => t.type === 'page' && t.url === `chrome-extension://${extensionId}/popup.html`).map((t) => t.title);
}

function site(): Promise<TestServer> {
  return startServer({
    routes: [
      (req, res, url) => {
        if (url.pathname !== '/hop') return false;
        // A redirect from the granted origin to a private address.
        const port = (req.headers.host ?? '').split(':')[1];
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/secret` });
        res.end();
        return true;
      },
    ],
    files: { '/index.html': '<!doctype html><title>site</title><p>site</p>', '/second.html': '<!doctype html><title>second</title>', '/grant.txt': 'granted body' },
  });
}

let server: TestServer;
let dirs: string[] = [];
test.beforeAll(async () => {
  server = await site();
});
test.afterAll(async () => {
  await server?.close();
});
test.afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

test('withheld site access: a tab address is hidden without `tabs` until the toolbar click, shown with `tabs`; navigation events name it either way', async () => {
  const origin = `http://site.grant.test:${server.port}`;
  for (const permissions of [['webNavigation'], ['webNavigation', 'tabs']]) {
    const extDir = probeExtension(tempDir('skillpin-probe-ext-'), permissions, 'chrome');
    const id = unpackedExtensionId(extDir);
    const profile = tempDir('skillpin-probe-profile-');
    withholdSiteAccess(profile, id);
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...extensionArgs(extDir), RESOLVER] });
    try {
      const sw = await workerOf(context);
      // The worker is listed before its script has run: navigate only once its listener is there.
      await expect.poll(() => sw.evaluate(() => Array.isArray((self as unknown as { navigations?: unknown }).navigations))).toBe(true);
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${origin}/`);
      const other = await context.newPage();
      await other.goto(`http://other.grant.test:${server.port}/`);
      await page.bringToFront();
      const withTabs = permissions.includes('tabs');
      expect(await sw.evaluate(() => chrome.permissions.contains({ origins: ['http://site.grant.test/*'] }))).toBe(false);
      // The probe extension records onCommitted as it comes: the event may still be on its way.
      await expect.poll(() => sw.evaluate(() => (self as unknown as { navigations: string[] }).navigations)).toContain(`${origin}/`);
      const before = await sw.evaluate(() => (self as unknown as { tabUrls(): Promise<(string | null)[]> }).tabUrls());
      expect(before.sort(), permissions.join()).toEqual(withTabs ? [`${origin}/`, `http://other.grant.test:${server.port}/`].sort() : [null, null]);
      if (withTabs) continue;

      // The click opens the popup, which reads the address: the click granted this tab, and only it.
      await clickToolbarIcon(context, id, page);
      await expect.poll(() => popupTitles(context, id)).toEqual([`tab:${origin}/`]);
      const after = await sw.evaluate(() => (self as unknown as { tabUrls(): Promise<(string | null)[]> }).tabUrls());
      expect(after.sort()).toEqual([`${origin}/`, null].sort());
      expect(await sw.evaluate(() => chrome.permissions.contains({ origins: ['http://site.grant.test/*'] }))).toBe(false);
    } finally {
      await context.close();
    }
  }
});

test("the toolbar click lets Skillpin's worker fetch the tab's origin (credentials omitted) until the tab leaves it; permissions.contains never says so", async () => {
  const origin = `http://site.grant.test:${server.port}`;
  const otherOrigin = `http://other.grant.test:${server.port}`;
  const profile = tempDir('skillpin-grant-');
  const id = unpackedExtensionId(EXTENSION_DIR);
  withholdSiteAccess(profile, id);
  const { context, sw } = await launch(profile, [RESOLVER]);
  const fetchFromWorker = (url: string) =>
    sw.evaluate(async (u) => {
      try {
        const r = await fetch(u, { credentials: 'omit', cache: 'no-store' });
        return `${r.status} ${await r.text()}`;
      } catch {
        return 'rejected';
      }
    }, url);
  const contains = () => sw.evaluate((o) => chrome.permissions.contains({ origins: [`${o}/*`] }), origin);
  const requested = (path: string) => server.log.filter((r) => r.path === path);
  try {
    expect(id).toBe(new URL(sw.url()).host);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/`);
    const other = await context.newPage();
    await other.goto(`${otherOrigin}/`);
    await page.bringToFront();

    // Without access the fetch fails, but it was sent: the browser asks the site (CORS) and
    // refuses the answer. Only a check before fetching keeps Skillpin from asking.
    expect(await contains()).toBe(false);
    expect(await fetchFromWorker(`${origin}/grant.txt?before`)).toBe('rejected');
    expect(requested('/grant.txt?before').map((r) => r.headers.origin)).toEqual([`chrome-extension://${id}`]);

    await clickToolbarIcon(context, id, page);
    await expect.poll(() => fetchFromWorker(`${origin}/grant.txt?during`)).toBe('200 granted body');
    expect(requested('/grant.txt?during').every((r) => r.headers.cookie === undefined)).toBe(true);
    // The grant is the tab's origin only, invisible to the permissions API, announced by no event.
    expect(await contains()).toBe(false);
    expect(await sw.evaluate(() => chrome.permissions.getAll().then((p) => p.origins ?? []))).toEqual([]);
    expect(await fetchFromWorker(`${otherOrigin}/grant.txt?other`)).toBe('rejected');
    // A redirect from the granted origin to a private address is still never requested (the
    // block rules hold for a host without access).
    expect(await fetchFromWorker(`${origin}/hop`)).toBe('rejected');
    expect(server.log.some((r) => r.path === '/secret')).toBe(false);

    // It lasts while the tab stays on the origin, and ends when the tab leaves it.
    await page.goto(`${origin}/second.html`);
    expect(await fetchFromWorker(`${origin}/grant.txt?same-origin`)).toBe('200 granted body');
    await page.goto(`${otherOrigin}/second.html`);
    expect(await fetchFromWorker(`${origin}/grant.txt?left`)).toBe('rejected');
    expect(await fetchFromWorker(`${otherOrigin}/grant.txt?moved`)).toBe('rejected');
  } finally {
    await context.close();
  }
});
