// Skillpin is a guest in Firefox too: the pages of test/e2e/support/guest-run.ts observe the same
// in Firefox ESR with and without the extension, in one run, also while a probe is in flight (the
// request guard's blocking webRequest listener for requests outside tabs is then in place).
// Every name resolves to 127.0.0.1 (network.dns.forceResolve); the intranet names count as
// secure contexts (dom.securecontext.allowlist), as they would over https, so that service
// workers work there without Skillpin; the warning Firefox then shows before a form on such a
// page posts to plain http (a modal that would stop the page) is turned off in both profiles.
import { test, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { ensureFirefoxBuild, launchFirefox, newProfileDir, removeProfileDir } from './support';
import { MAPPED_HOSTS, expectedObservation, observeAll, startGuestSites, type GuestPage, type GuestSites, type Observation } from '../support/guest-run';

test.describe.configure({ timeout: 240_000 });

let sites: GuestSites;
test.beforeAll(async () => {
  ensureFirefoxBuild();
  sites = await startGuestSites();
});
test.afterAll(async () => {
  await sites?.close();
});

function guestPage(page: Page): GuestPage {
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    shortcut: async (key) => {
      await page.keyboard.down('Control');
      await page.keyboard.press(key === 'c' ? 'KeyC' : 'KeyV');
      await page.keyboard.up('Control');
    },
    close: () => page.close(),
  };
}

async function observeIn(extension: boolean): Promise<Record<string, Observation>> {
  const dir = newProfileDir();
  const prefs = { 'dom.securecontext.allowlist': MAPPED_HOSTS.join(','), 'security.warn_submit_secure_to_insecure': false };
  const ff = await launchFirefox(dir, { extension, prefs });
  try {
    return await observeAll(sites, async () => guestPage(await ff.browser.newPage()), extension);
  } finally {
    await ff.close();
    removeProfileDir(dir);
  }
}

test('Firefox: pages on loopback and intranet hosts observe the same with and without Skillpin, also while it probes', async () => {
  const without = await observeIn(false);
  const withSkillpin = await observeIn(true);
  for (const [origin, seen] of Object.entries(without)) expect.soft(seen, `without Skillpin: ${origin}`).toEqual(expectedObservation());
  for (const [origin, seen] of Object.entries(withSkillpin)) expect.soft(seen, `with Skillpin: ${origin}`).toEqual(without[origin]);
});
