// axe-core in a real page (extension pages included: their CSP refuses an injected script tag, so
// the engine is evaluated through the debugging protocol, which the CSP does not govern). The
// pages are checked in both colour schemes the way the user's system asks for them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The WCAG 2.x A and AA violations on the page as it is drawn now, in the colour scheme asked for. */
export async function axeViolations(page: Page, colorScheme: 'light' | 'dark'): Promise<AxeViolation[]> {
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  if (!(await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } })
      .axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
