// End-to-end fixtures for the test composers (test/e2e/composers): the extension in
// Chromium with every composer host name resolved to 127.0.0.1 and the composers' test
// certificate accepted, one HTTPS server for all composer pages per worker, and helpers
// that read what a composer's own editor model holds.
import type { Page } from '@playwright/test';
import { test as extensionTest, launch } from './extension';
import { startComposerServer, type ComposerServer } from '../composers/server';
import { COMPOSER_HOSTS, composerPage, type ComposerPage } from '../composers/catalogue';

export const COMPOSER_ARGS = [`--host-resolver-rules=${COMPOSER_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`, '--ignore-certificate-errors'];

export const test = extensionTest.extend<{}, { composers: ComposerServer }>({
  composers: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startComposerServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ profileDir }, use) => {
    const { context } = await launch(profileDir, COMPOSER_ARGS);
    await use(context);
    await context.close();
  },
});

export interface ComposerState {
  model: string;
  sends: number;
  attachments: number;
  caretAtEnd: boolean;
}

/** Opens a composer page and waits for its editor. */
export async function openComposer(page: Page, composers: ComposerServer, id: string): Promise<ComposerPage> {
  const spec = composerPage(id);
  await page.goto(composers.url(spec));
  await page.waitForFunction(() => window.composerTest?.ready === true);
  return spec;
}

/** What the composer's editor model holds, and what happened around it. */
export async function composerState(page: Page): Promise<ComposerState> {
  return page.evaluate(() => {
    const probe = window.composerTest;
    return { model: probe.model(), sends: probe.sends, attachments: probe.attachments.length, caretAtEnd: probe.caretAtEnd() };
  });
}

/** Lines that differ, for a readable failure: `line N: got … want …`. */
export function lineDiff(got: string, want: string): string {
  const a = got.split('\n');
  const b = want.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1} of ${b.length}: got ${JSON.stringify(a[i])}, want ${JSON.stringify(b[i])} (${a.length} lines)`;
  }
  return 'same';
}
