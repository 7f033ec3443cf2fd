// No origin is broken inside its port at the popup's width: the popup's header
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
    // The lines of the Re-check button's words, measured the same way.
    const recheck = document.querySelector('[data-action="recheck"]')?.firstChild ?? null;
    const buttonTops = new Set<number>();
    for (let i = 0; recheck && i < (recheck.textContent ?? '').length; i++) {
      const range = document.createRange();
      range.setStart(recheck, i);
      range.setEnd(recheck, i + 1);
      buttonTops.add(Math.round(range.getBoundingClientRect().top));
    }
    return { lines: new Set(tops).size, portOnOneLine: portTops.size === 1, buttonLines: buttonTops.size };
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
    // "Re-check" is one line, not "Re- / check"; a loopback origin fits one line of its own.
    expect(measured.buttonLines).toBe(1);
    if (origin.length < 30) expect(measured.lines).toBe(1);
    await expect(page.getByTestId('origin').locator('[title]')).toHaveAttribute('title', origin);
  });
}
