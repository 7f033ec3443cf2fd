// Skillpin is a guest: pages of their own on loopback and intranet-style hosts observe exactly
// the same with and without it, in one run (issue: a good guest). Two persistent Chromium
// profiles with the same flags, one with the built extension and one without, load the same
// pages (test/e2e/support/guest-run.ts): service workers (registration, fetches through the
// worker, the update check), shared and dedicated workers fetching private hosts, the page's
// own fetch / XHR / WebSocket / EventSource to loopback, a form post, its own copy and paste
// handlers; on a publishing site while Skillpin's probe is in flight.
import { chromium, test, expect, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_ARGS } from '../../scripts/lib/chromium.mjs';
import { CHROMIUM, launch } from './support/extension';
import { MAPPED_HOSTS, expectedObservation, observeAll, startGuestSites, type GuestPage, type GuestSites } from './support/guest-run';

test.describe.configure({ timeout: 180_000 });

let sites: GuestSites;
test.beforeAll(async () => {
  sites = await startGuestSites();
});
test.afterAll(async () => {
  await sites?.close();
});

/** The same flags for both profiles: intranet names on 127.0.0.1, and treated as secure as they would be over https. */
function flags(): string[] {
  const secure = sites.origins().filter((o) => MAPPED_HOSTS.includes(new URL(o).hostname));
  return [`--host-resolver-rules=${MAPPED_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`, `--unsafely-treat-insecure-origin-as-secure=${secure.join(',')}`];
}

function guestPage(page: Page): GuestPage {
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    shortcut: (key) => page.keyboard.press(`Control+${key.toUpperCase()}`),
    close: () => page.close(),
  };
}

async function withProfile<T>(start: (dir: string) => Promise<BrowserContext>, body: (context: BrowserContext) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-guest-'));
  const context = await start(dir);
  try {
    return await body(context);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('Chromium: pages on loopback and intranet hosts observe the same with and without Skillpin, also while it probes', async () => {
  const args = flags();
  const without = await withProfile(
    (dir) =>
      chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        args: [...BROWSER_ARGS, ...args],
        permissions: ['clipboard-read', 'clipboard-write'],
        ignoreHTTPSErrors: true,
      }),
    (context) => observeAll(sites, async () => guestPage(await context.newPage()), false),
  );
  const withSkillpin = await withProfile(
    async (dir) => (await launch(dir, args)).context,
    (context) => observeAll(sites, async () => guestPage(await context.newPage()), true),
  );
  // Without Skillpin every page works (so the comparison means something)...
  for (const [origin, seen] of Object.entries(without)) expect.soft(seen, `without Skillpin: ${origin}`).toEqual(expectedObservation());
  // ...and with it, each observes exactly the same.
  for (const [origin, seen] of Object.entries(withSkillpin)) expect.soft(seen, `with Skillpin: ${origin}`).toEqual(without[origin]);
});
