// The desktop program as a new user meets it, in real Chromium: the packed program installed
// offline into a fresh npm prefix by a fresh home, `skillpin install-host` run from that prefix
// with nothing but HOME telling it where things are (the data folder and the agent folders are
// that home's defaults), the browser started in the same home with nativeMessaging granted as the
// optional permission it is. In the options page the switch turns the mirror on and two agents
// are ticked, Claude Code and Codex; a skill approved with the popup's Approve button on a
// publisher site appears byte for byte in the one folder each of them reads and nowhere else an
// agent reads, and `skillpin mcp` from the prefix serves it as a prompt, through its tools and
// through the Skills extension.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { unpackedExtensionId } from '../../scripts/lib/chromium.mjs';
import type { DesktopAgentId } from '../../lib/desktop/protocol/agents';
import { NATIVE_HOST_NAME } from '../../lib/desktop/protocol/limits';
import type { OriginReport, Settings } from '../../lib/types';
import { approveInPopup } from './support/approve';
import { EXTENSION_DIR, launch, send } from './support/extension';
import { expectServedByInstalledMcp, freshHomeEnv, installPacked, launcherOf, type PackedHost, runInstalled, skillFilesInHome } from './support/packed-host';
import { seed, startPublisher } from './support/sites';

const extensionId = unpackedExtensionId(EXTENSION_DIR);
let host: PackedHost | null = null;
let profileDir: string | null = null;
let context: BrowserContext | null = null;

test.afterEach(async () => {
  await context?.close();
  context = null;
  if (profileDir !== null) rmSync(profileDir, { recursive: true, force: true });
  profileDir = null;
  host?.cleanup();
  host = null;
});

/** Ticks an agent in the options page and waits until the setting is stored. */
async function tickAgent(page: Page, agent: DesktopAgentId): Promise<void> {
  await page.check(`[data-agent="${agent}"]`);
  await expect.poll(async () => (await send<Settings>(page, { type: 'skillpin:settings-get' })).desktopAgents).toContain(agent);
}

test('packed and installed offline in a fresh home: the options page turns the mirror on, Claude Code and Codex each get an approved skill once, and the installed skillpin mcp serves it', async () => {
  test.setTimeout(240_000);
  host = installPacked();
  const h = host;
  profileDir = mkdtempSync(join(tmpdir(), 'skillpin-e2e-'));

  const installed = runInstalled(h, ['install-host', '--chrome-id', extensionId, '--chrome-profile', profileDir]);
  expect(installed).toContain(NATIVE_HOST_NAME);
  // The home's default data folder, and a manifest there for the test profile pointing at its launcher.
  expect(existsSync(join(h.dataDir, 'install.json'))).toBe(true);
  expect(JSON.parse(readFileSync(join(profileDir, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`), 'utf8'))).toMatchObject({
    path: launcherOf(h),
    allowed_origins: [`chrome-extension://${extensionId}/`],
  });

  // The user granted nativeMessaging once (Default/Preferences, read at start): Chromium's prompt
  // cannot be clicked from a test. The browser runs in the fresh home, as the user's would.
  mkdirSync(join(profileDir, 'Default'), { recursive: true });
  const granted = { granted_permissions: { api: ['nativeMessaging'] }, runtime_granted_permissions: { api: ['nativeMessaging'] } };
  writeFileSync(join(profileDir, 'Default', 'Preferences'), JSON.stringify({ extensions: { settings: { [extensionId]: granted } } }));
  const site = await startPublisher({ seed: seed(43) });
  try {
    const launched = await launch(profileDir, [], { env: freshHomeEnv(h.home) });
    context = launched.context;
    expect(launched.extensionId).toBe(extensionId);
    const ctx = context;
    const page = await ctx.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    await page.waitForSelector('[data-testid="desktop-state"][data-state="off"]');
    await page.click('#desktop-switch');
    await page.waitForSelector('[data-testid="desktop-state"][data-state="in-sync"]', { timeout: 30_000 });

    await tickAgent(page, 'claude-code');
    await tickAgent(page, 'codex');
    expect((await send<Settings>(page, { type: 'skillpin:settings-get' })).desktopAgents.slice().sort()).toEqual(['claude-code', 'codex']);
    // The folders the page says it writes: one each, so neither agent sees a skill twice.
    await expect(page.locator('[data-testid="desktop-folders"]')).toHaveAttribute('data-folders', 'claude-code agents');
    await expect(page.locator('[data-testid="desktop-twice"]')).toHaveCount(0);

    const visit = await ctx.newPage();
    await visit.goto(`${site.origin}/`);
    await expect.poll(async () => (await send<OriginReport | null>(page, { type: 'skillpin:report', origin: site.origin }))?.state, { timeout: 20_000 }).toBe('done');
    await approveInPopup(ctx, extensionId, site.origin, 'search-docs');

    const skillMd = readFileSync(join(site.dir, 'skills', 'search-docs', 'SKILL.md'));
    const copies = ['.agents/skills/search-docs/SKILL.md', '.claude/skills/search-docs/SKILL.md'];
    await expect.poll(() => copies.every((c) => existsSync(join(h.home, c))), { timeout: 30_000 }).toBe(true);
    for (const c of copies) expect(readFileSync(join(h.home, c)).equals(skillMd), c).toBe(true);
    // No other folder any agent reads has it: not ~/.gemini/skills, ~/.copilot/skills, ~/.cursor/skills…
    expect(skillFilesInHome(h)).toEqual(copies);
    await expect(page.locator('[data-testid="desktop-state"]')).toHaveAttribute('data-state', 'in-sync');

    await expectServedByInstalledMcp(h, { name: 'search-docs', origin: site.origin, url: `${site.origin}/skills/search-docs/SKILL.md`, skillMd });
  } finally {
    await site.close();
  }
});
