// The README's desktop steps ("Use a skill in your desktop agent") walked in a profile made the way
// `npm run demo` makes it (scripts/lib/demo-session.mjs: developer mode, as any profile that loads an
// unpacked extension; here also nativeMessaging granted, as after the user's Allow, which no test can
// click). Turned on in the settings page, the program not installed yet: the page says what it asked
// the browser, when, and where the browser looks, and lists no skill as held. The command the demo
// prints installs the program for the demo's own profile; Check again reaches it, with nothing
// restarted; the agents ticked get an approved skill in the demo's folder, never the real home; a
// withdrawal says which agents lose it; the demo's close removes its folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildOnce, startDemo } from '../../scripts/lib/demo-session.mjs';
import { SKILLPIN_BIN } from '../support/desktop';
import { approveThrough } from './support/approve';

/** What the real home's agent folders hold now (the demo must add nothing there). */
const realAgentFolders = (): Record<string, string[]> =>
  Object.fromEntries(['.claude/skills', '.agents/skills', '.gemini/skills'].map((f) => [f, existsSync(join(homedir(), f)) ? readdirSync(join(homedir(), f)).sort() : []]));

test('the README desktop steps in the demo profile: install with the printed command, Check again, pick agents, approve, withdraw; nothing in the real home', async () => {
  test.setTimeout(240_000);
  process.env.SKIP_BUILD = '1';
  buildOnce();
  const scratch = mkdtempSync(join(tmpdir(), 'skillpin-demo-desktop-'));
  const before = realAgentFolders();
  const demo = await startDemo({ headless: true, grantNativeMessaging: true, siteDir: join(scratch, 'site'), downloads: join(scratch, 'downloads'), desktopDir: join(scratch, 'desktop') });
  try {
    const { context, extensionId, site, desktop } = demo;
    expect(desktop.installCommand).toContain(`--chrome-id ${extensionId}`);
    expect(desktop.installCommand).toContain(`--chrome-profile ${demo.profile}`);

    // Step 1: turn it on. The program is not installed: the page says so in its own words.
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html#desktop`);
    await options.click('#desktop-switch');
    const state = options.locator('[data-testid="desktop-state"]');
    await expect(state).toHaveAttribute('data-state', 'host-absent', { timeout: 30_000 });
    await expect(state).toContainText('dev.skillpin.mirror');
    await expect(options.locator('[data-testid="desktop-checked"]')).toContainText('dev.skillpin.mirror');
    await expect(options.locator('[data-testid="desktop-manifest-places"]')).toContainText('~/.config/chromium/NativeMessagingHosts/');
    await expect(options.locator('[data-testid="desktop-skills-empty"]')).toBeVisible();

    // Step 2: the command the demo prints, as a user pastes it in a terminal in the clone.
    const [, ...args] = desktop.installArgs;
    const printed = execFileSync(process.execPath, [SKILLPIN_BIN, 'install-host', ...args], { encoding: 'utf8' });
    expect(printed).toContain('Skillpin host installed.');
    expect(printed).toMatch(/Check again/);
    expect(existsSync(join(demo.profile, 'NativeMessagingHosts', 'dev.skillpin.mirror.json'))).toBe(true);

    // Check again: the program answers, through the page; nothing restarted.
    await options.click('[data-action="desktop-check"]');
    await expect(state).toHaveAttribute('data-state', 'in-sync', { timeout: 30_000 });
    expect(options.isClosed()).toBe(false);

    // Step 3: pick two agents; approve a skill on the demo site.
    await options.check('[data-agent="claude-code"]');
    await options.check('[data-agent="codex"]');
    const visit = await context.newPage();
    await visit.goto(`${site.origin}/`);
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
    const card = popup.locator('[data-skill-url]', { hasText: 'search-docs' }).first();
    await approveThrough(popup, card.getByRole('button', { name: /approve/i }), card.locator('[data-action="copy"]'));
    const copy = (folder: string) => join(desktop.home, folder, 'search-docs', 'SKILL.md');
    await expect.poll(() => existsSync(copy('.claude/skills')) && existsSync(copy('.agents/skills')), { timeout: 30_000 }).toBe(true);
    await options.reload();
    await expect(options.locator('[data-testid="desktop-skills"] [data-testid="desktop-seen-by"]')).toContainText('Claude Code');

    // Withdraw in the popup: the message names the agents that lose it; both copies go.
    await popup.reload();
    await popup.locator('[data-skill-url]', { hasText: 'search-docs' }).first().locator('[data-action="withdraw"]').click();
    await expect(popup.locator('[data-testid="announcer"]')).toContainText(/Claude Code.*Codex|Codex.*Claude Code/);
    await expect.poll(() => existsSync(copy('.claude/skills')) || existsSync(copy('.agents/skills')), { timeout: 30_000 }).toBe(false);
    expect(realAgentFolders()).toEqual(before);
  } finally {
    await demo.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  expect(existsSync(demo.desktop.dir)).toBe(false);
});
