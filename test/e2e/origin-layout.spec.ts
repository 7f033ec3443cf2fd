// No origin is broken inside its port at the popup's width (issue 34, item 5): the popup's header
// with a loopback origin and with a long host, measured by the line boxes Chromium lays out.
import type { Page } from '@playwright/test';
import { expect, test } from './support/extension';

/** The lines the origin's text occupies, as [text, top] per character run, and whether ":port" shares a line with the label before it. */
async function portLines(page: Page): Promise<{ lines: number; portOnOneLine: boolean; buttonLines: number }> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid="origin"]');
    if (!el) throw new Error('no origin');
    const text = el.textContent ?? '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const tops: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? '').length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    const colon = text.lastIndexOf(':');
    // The label before the port starts after the last dot.
    const labelStart = text.lastIndexOf('.', colon) + 1;
    const portTops = new Set(tops.slice(labelStart));
    const recheck = document.querySelector('[data-action="recheck"]');
    const lineHeight = recheck ? Number.parseFloat(getComputedStyle(recheck).lineHeight) || 16 : 16;
    return {
      lines: new Set(tops).size,
      portOnOneLine: portTops.size === 1,
      buttonLines: recheck ? Math.round(recheck.getBoundingClientRect().height / lineHeight) : 0,
    };
  });
}

for (const origin of ['http://127.0.0.1:33941', 'http://publisher-staging.internal.skills.example.test:33941']) {
  test(`the popup's header keeps the port of ${origin} on one line with its colon`, async ({ context, extensionId }) => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 400, height: 600 });
    await page.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(origin)}`);
    await expect(page.getByTestId('origin')).toHaveText(origin);
    const measured = await portLines(page);
    expect(measured.portOnOneLine, JSON.stringify(measured)).toBe(true);
    // "Re-check" is one line, not "Re- / check".
    expect(measured.buttonLines).toBeLessThanOrEqual(2);
    await expect(page.getByTestId('origin').locator('[title]')).toHaveAttribute('title', origin);
  });
}
