// @ts-check
// `npm run demo`: builds the extension, writes a demo publisher site with five signed
// skills (a fresh key each run), serves it and a mock chat page on 127.0.0.1, and
// opens Chromium with Skillpin loaded on the demo site. With a display it stays open
// for you to click around (Ctrl+C to stop); without one it runs headless, walks
// through the popup states and saves screenshots into a folder it prints.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './lib/server.mjs';
import { chromiumPath, extensionArgs } from './lib/chromium.mjs';
import { writePublisherSite, DEMO_SKILLS } from './lib/publisher-site.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const extensionDir = join(root, '.output/chrome-mv3');
const browserPath = chromiumPath();
const headed = !!process.env.DISPLAY && process.env.HEADLESS !== '1';
const shots = join(root, '.demo/screenshots');

if (!existsSync(browserPath)) {
  console.error(`Chromium not found at ${browserPath}. Install the 'chromium' package (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}

if (process.env.SKIP_BUILD !== '1' || !existsSync(join(extensionDir, 'manifest.json'))) {
  console.log('building the extension…');
  execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit', cwd: root });
}

const siteDir = join(root, '.demo/site');
const { keys } = writePublisherSite(siteDir, { skills: DEMO_SKILLS, title: 'Demo publisher' });
const site = await startServer({ root: siteDir, cacheControl: 'max-age=300' });
const chat = await startServer({ root: join(root, 'test/e2e/fixtures/mock-chat') });
console.log(`demo publisher: ${site.origin}/  (key ${keys.publicKeyB64})`);
console.log(`mock chat:      ${chat.origin}/index.html`);

const profile = mkdtempSync(join(tmpdir(), 'skillpin-demo-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: browserPath,
  headless: !headed,
  viewport: { width: 1100, height: 800 },
  args: extensionArgs(extensionDir),
  permissions: ['clipboard-read', 'clipboard-write'],
});

async function shutdown() {
  await context.close().catch(() => undefined);
  await site.close();
  await chat.close();
  rmSync(profile, { recursive: true, force: true });
}
process.on('SIGINT', () => void shutdown().then(() => process.exit(0)));

let sw = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
if (!sw) sw = await context.waitForEvent('serviceworker', { timeout: 30_000 });
await sw.evaluate(() => globalThis.skillpinReady);
const extensionId = new URL(sw.url()).host;

const page = context.pages()[0] ?? (await context.newPage());
await page.goto(`${site.origin}/`);

if (headed) {
  console.log('\nChromium is open on the demo site. Click the Skillpin toolbar icon (pin it from the puzzle menu),');
  console.log(`or open chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
  console.log('Approve a skill, then open the mock chat and use "Insert into chat". Ctrl+C stops the demo.');
  await new Promise(() => undefined);
}

// Headless: walk through the popup states and keep screenshots.
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
/** @param {import('playwright-core').Page} p @param {string} name */
const snap = async (p, name) => {
  await p.screenshot({ path: join(shots, name), fullPage: true });
  console.log(`  saved ${name}`);
};

/** @param {import('playwright-core').Page} p */
async function waitDone(p) {
  for (let i = 0; i < 200; i++) {
    const r = await p.evaluate((o) => chrome.runtime.sendMessage({ type: 'skillpin:report', origin: o }), site.origin);
    if (r && r.state !== 'probing') return r;
    await p.waitForTimeout(100);
  }
  throw new Error('the demo site was not probed');
}

const popup = await context.newPage();
await popup.setViewportSize({ width: 400, height: 640 });
await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
const report = await waitDone(popup);
console.log(`\n${report.skills.length} skills found: ${report.skills.map((/** @type {{name: string, status: string}} */ s) => `${s.name} (${s.status})`).join(', ')}`);
await popup.reload();
await popup.waitForTimeout(500);
await snap(popup, '1-popup-list.png');

const first = popup.locator('[data-skill-url]').first();
const details = first.getByRole('button', { name: /details/i });
if (await details.count()) {
  await details.first().click();
  await popup.waitForTimeout(300);
  await snap(popup, '2-popup-details.png');
  const back = popup.getByRole('button', { name: /back/i });
  if (await back.count()) await back.first().click();
}
const approve = popup.locator('[data-skill-url]').first().getByRole('button', { name: /approve/i });
if (await approve.count()) {
  await approve.first().click();
  await popup.waitForTimeout(500);
  await snap(popup, '3-popup-approved.png');
}

const chatPage = await context.newPage();
await chatPage.goto(`${chat.origin}/index.html`);
await chatPage.locator('#composer-textarea').focus();
const chatTabId = await sw.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1, chatPage.url());
const skill = report.skills[0];
const inserted = await popup.evaluate(
  (m) => chrome.runtime.sendMessage(m),
  { type: 'skillpin:insert', tabId: chatTabId, origin: site.origin, url: skill.url },
);
console.log(`insert into the mock chat: ${inserted.ok ? 'ok' : 'failed'} (${inserted.method}) ${inserted.message ?? ''}`);
await chatPage.waitForTimeout(300);
await snap(chatPage, '4-mock-chat-inserted.png');

console.log(`\nscreenshots: ${shots}`);
await shutdown();
