// The toolbar icon as a user clicks it: CDP's Extensions.triggerAction on the tab's own target, the
// entry point Chromium's toolbar button uses (the popup it opens is listed by CDP, not by Playwright).
import type { BrowserContext, Page } from '@playwright/test';

export async function clickToolbarIcon(context: BrowserContext, extensionId: string, page: Page): Promise<void> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser session');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] });
    const tab = targetInfos.find((t) => t.url === page.url());
    if (!tab) throw new Error(`no tab target for ${page.url()}`);
    await cdp.send('Extensions.triggerAction', { id: extensionId, targetId: tab.targetId });
  } finally {
    await cdp.detach();
  }
}
