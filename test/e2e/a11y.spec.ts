// The popup and the options page pass axe's WCAG 2.1 A and AA checks (contrast included) in the
// light and the dark theme, in the states a newcomer meets: the list, a skill's details with their
// evidence open, an approved skill with its message, and every section of the options page.
import { test, expect, tabIdOf, waitForReport } from './support/extension';
import { axeViolations } from './support/axe';
import { startPublisher, seed } from './support/sites';
import { DEMO_SKILLS } from '../../scripts/lib/publisher-site.mjs';
import type { OriginReport } from '../../lib/types';

const THEMES = ['light', 'dark'] as const;

test('the popup and the options page pass axe in both themes', async ({ context, extPage, extensionId, sw }) => {
  test.setTimeout(120_000);
  const site = await startPublisher({ seed: seed(71) });
  try {
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    await waitForReport<OriginReport>(extPage, site.origin);
    const tabId = await tabIdOf(sw, page);
    const popup = await context.newPage();
    await popup.setViewportSize({ width: 400, height: 600 });
    await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
    const first = popup.locator('[data-skill-url]').first();
    await first.waitFor();
    const found: Record<string, unknown> = {};
    const check = async (name: string) => {
      for (const theme of THEMES) {
        const v = await axeViolations(popup, theme);
        if (v.length) found[`${name} (${theme})`] = v;
      }
    };
    await check('popup list');
    await first.locator('[data-action="details"]').click();
    await popup.locator('[data-testid="evidence"] > summary').click();
    await check('popup details');
    await popup.locator('[data-action="back"]').click();
    await popup.locator('[data-skill-url]').first().locator('[data-action="approve"]').click();
    await popup.locator('[data-skill-url]').first().locator('[data-action="withdraw"]').waitFor();
    await check('popup approved, with its message');

    const options = popup;
    await options.setViewportSize({ width: 1000, height: 760 });
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await options.locator('#diag-origin').selectOption(site.origin);
    await options.getByTestId('report-summary').waitFor();
    await check('options page');
    expect(found).toEqual({});
  } finally {
    await site.close();
  }
});

test('the side-panel library passes axe in both themes: the list, and the review of a changed skill', async ({ context, extPage, extensionId }) => {
  test.setTimeout(120_000);
  const site = await startPublisher({ seed: seed(72) });
  try {
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    const report = await waitForReport<OriginReport>(extPage, site.origin);
    for (const s of report.skills.slice(0, 2)) {
      if (!s.url || !s.actual) throw new Error(`${s.name} did not verify`);
      await extPage.evaluate((m) => chrome.runtime.sendMessage(m), {
        type: 'skillpin:approve',
        origin: site.origin,
        url: s.url,
        digestLf: s.actual.lf,
        confirmUnverified: false,
        confirmCrossOrigin: false,
      });
    }
    const panel = await context.newPage();
    await panel.setViewportSize({ width: 360, height: 700 });
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    await panel.locator('[data-skill-url]').nth(1).waitFor();
    const found: Record<string, unknown> = {};
    const check = async (name: string) => {
      for (const theme of THEMES) {
        const v = await axeViolations(panel, theme);
        if (v.length) found[`${name} (${theme})`] = v;
      }
    };
    await check('library list');
    await panel.keyboard.press('ArrowDown');
    await check('library, second row chosen');
    // A content change: the row says so and its review shows the diff.
    const first = report.skills[0];
    site.republish({ seed: seed(72), skills: DEMO_SKILLS.map((s) => (s.name === first?.name ? { ...s, body: 'Changed.\n\nA new line.\n' } : s)) });
    await extPage.evaluate((o) => chrome.runtime.sendMessage({ type: 'skillpin:probe', origin: o }), site.origin);
    await panel.locator('[data-action="review"]').first().click();
    await panel.getByTestId('diff-summary').waitFor();
    await check('library review');
    expect(found).toEqual({});
  } finally {
    await site.close();
  }
});
