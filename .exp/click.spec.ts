import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { EXTENSION_DIR, launch, send } from '../test/e2e/support/extension';
import { startPublisher, seed } from '../test/e2e/support/sites';
import { clickToolbarIcon } from '../test/e2e/support/toolbar';
import { unpackedExtensionId, withholdSiteAccess } from '../scripts/lib/chromium.mjs';

test('debug click', async () => {
  const site = await startPublisher({ seed: seed(31) });
  const profileDir = mkdtempSync(join(tmpdir(), 'dbg-'));
  const id = unpackedExtensionId(EXTENSION_DIR);
  withholdSiteAccess(profileDir, id, []);
  const { context, sw } = await launch(profileDir);
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  await page.waitForTimeout(1500);
  await page.bringToFront();
  await clickToolbarIcon(context, id, page);
  for (let i = 0; i < 10; i++) {
    await page.waitForTimeout(1000);
    const cdp = await context.browser()!.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    await cdp.detach();
    console.log(i, targetInfos.filter((t) => t.url.includes('popup')).map((t) => t.url + ' ' + t.title), JSON.stringify(site.server.log.map((r) => r.path)));
    const r = await sw.evaluate(async (o) => { const s = (globalThis as any).skillpin; return s ? JSON.stringify((await s.handleMessage({ type: 'skillpin:report', origin: o }, { id: chrome.runtime.id, url: chrome.runtime.getURL('/options.html') }))).slice(0, 300) : 'no hook'; }, site.origin);
    console.log(r);
  }
  await context.close();
  await site.close();
});
