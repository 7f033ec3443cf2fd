// The desktop program as a new user meets it, in real Firefox ESR: the packed program installed
// offline into a fresh npm prefix by a fresh home, `skillpin install-host` run from that prefix
// with nothing but HOME telling it where things are (its manifest goes to that home's
// ~/.mozilla/native-messaging-hosts/, where Firefox started in the same home reads it). In the
// options page the switch turns the mirror on (nativeMessaging granted on the click, the
// optional-permission prompt switched off for the test) and two agents are ticked, Claude Code and
// Codex; a skill approved with the popup's Approve button on a publisher site appears byte for byte
// in the one folder each of them reads and nowhere else an agent reads, and `skillpin mcp` from the
// prefix serves it as a prompt, through its tools and through the Skills extension.
import { test, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopAgentId } from '../../../lib/desktop/protocol/agents';
import { FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from '../../../lib/desktop/protocol/limits';
import type { Settings } from '../../../lib/types';
import { expectServedByInstalledMcp, freshHomeEnv, installPacked, launcherOf, runInstalled, skillFilesInHome } from '../support/packed-host';
import { seed, startPublisher } from '../support/sites';
import { approveWithPopup, ensureFirefoxBuild, ffSend, launchFirefox, newProfileDir, openExtensionPage, removeProfileDir, type FirefoxSession } from './support';

test.describe.configure({ timeout: 240_000 });
test.beforeAll(() => ensureFirefoxBuild());

/** Polls until `check` holds (the background works on its own after each change). */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Ticks an agent in the options page with a real click and waits until the setting is stored. */
async function tickAgent(options: Page, agent: DesktopAgentId): Promise<void> {
  await options.waitForSelector(`[data-agent="${agent}"]:not(:disabled)`);
  await options.click(`[data-agent="${agent}"]`);
  await until(async () => (await ffSend<Settings>(options, { type: 'skillpin:settings-get' })).desktopAgents.includes(agent), `${agent} ticked`);
}

test('Firefox, packed and installed offline in a fresh home: the options page turns the mirror on, Claude Code and Codex each get an approved skill once, and the installed skillpin mcp serves it', async () => {
  const host = installPacked();
  const profileDir = newProfileDir();
  let ff: FirefoxSession | null = null;
  const site = await startPublisher({ seed: seed(44) });
  try {
    const installed = runInstalled(host, ['install-host']);
    expect(installed).toContain(NATIVE_HOST_NAME);
    expect(existsSync(join(host.dataDir, 'install.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(host.home, '.mozilla/native-messaging-hosts', `${NATIVE_HOST_NAME}.json`), 'utf8'))).toMatchObject({
      path: launcherOf(host),
      allowed_extensions: [FIREFOX_EXTENSION_ID],
    });

    ff = await launchFirefox(profileDir, { env: freshHomeEnv(host.home), prefs: { 'extensions.webextOptionalPermissionPrompts': false } });
    const options = await openExtensionPage(ff, 'options.html');
    await options.waitForSelector('[data-testid="desktop-state"][data-state="off"]');
    await options.click('#desktop-switch');
    await options.waitForSelector('[data-testid="desktop-state"][data-state="in-sync"]', { timeout: 30_000 });

    await tickAgent(options, 'claude-code');
    await tickAgent(options, 'codex');
    expect((await ffSend<Settings>(options, { type: 'skillpin:settings-get' })).desktopAgents.slice().sort()).toEqual(['claude-code', 'codex']);
    // The folders the page says it writes: one each, so neither agent sees a skill twice.
    await options.waitForSelector('[data-testid="desktop-folders"][data-folders="claude-code agents"]');
    expect(await options.$('[data-testid="desktop-twice"]')).toBeNull();

    const visit = await ff.browser.newPage();
    await visit.goto(`${site.origin}/`);
    const url = await approveWithPopup(ff, options, site, 'search-docs');
    expect(url).toBe(`${site.origin}/skills/search-docs/SKILL.md`);

    const skillMd = readFileSync(join(site.dir, 'skills', 'search-docs', 'SKILL.md'));
    const copies = ['.agents/skills/search-docs/SKILL.md', '.claude/skills/search-docs/SKILL.md'];
    await until(() => copies.every((c) => existsSync(join(host.home, c))), 'the agent-folder copies');
    for (const c of copies) expect(readFileSync(join(host.home, c)).equals(skillMd), c).toBe(true);
    // No other folder any agent reads has it: not ~/.gemini/skills, ~/.copilot/skills, ~/.cursor/skills…
    expect(skillFilesInHome(host)).toEqual(copies);
    await options.waitForSelector('[data-testid="desktop-state"][data-state="in-sync"]');

    await expectServedByInstalledMcp(host, { name: 'search-docs', origin: site.origin, url, skillMd });
  } finally {
    await ff?.close();
    await site.close();
    removeProfileDir(profileDir);
    host.cleanup();
  }
});
