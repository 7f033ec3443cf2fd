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

// The mock chat is no site Skillpin knows: make it one of the user's "Other chat sites".
const settingsPage = await context.newPage();
await settingsPage.goto(`chrome-extension://${extensionId}/options.html`);
const settings = await settingsPage.evaluate(() => chrome.runtime.sendMessage({ type: 'skillpin:settings-get' }));
const saved = await settingsPage.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'skillpin:settings-set', settings: { ...settings, chatSites: [chat.origin] } });
if (!saved?.ok) throw new Error(`could not add the mock chat to the chat sites: ${JSON.stringify(saved)}`);
console.log(`chat sites:     ${chat.origin} (Settings → Other chat sites)`);

const page = context.pages()[0] ?? (await context.newPage());
await page.goto(`${site.origin}/`);

if (headed) {
  console.log('\nChromium is open on the demo site. Click the Skillpin toolbar icon (pin it from the puzzle menu),');
  console.log(`or open chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
  console.log(`Approve a skill, open the mock chat (${chat.origin}/index.html) and use "Insert into chat". Ctrl+C stops the demo.`);
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

// Open the mock chat as a user leaves it (nothing focused), then click the popup's own button.
const chatPage = await context.newPage();
await chatPage.goto(`${chat.origin}/index.html`);
const chatTabId = await sw.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1, chatPage.url());
await popup.bringToFront();
await popup.reload();
const insert = popup.locator('[data-skill-url]').getByRole('button', { name: 'Insert into chat' });
await insert.first().waitFor({ timeout: 10_000 });
await insert.first().click();
const announced = popup.locator('[data-testid="announcer"]');
await popup.waitForFunction(() => (document.querySelector('[data-testid="announcer"]')?.textContent ?? '').trim() !== '', null, { timeout: 10_000 });
console.log(`popup says: ${(await announced.first().textContent())?.trim()}`);
await snap(popup, '4-popup-inserted.png');
await chatPage.waitForTimeout(300);
const held = await chatPage.locator('#composer-textarea').inputValue();
const sends = await chatPage.locator('#send-count').textContent();
console.log(`mock chat composer: ${held.length} chars, sends: ${sends}`);
await snap(chatPage, '5-mock-chat-inserted.png');

// The popup on the chat tab: every approved skill, ready to insert there.
const chatView = await context.newPage();
await chatView.setViewportSize({ width: 400, height: 640 });
await chatView.goto(`chrome-extension://${extensionId}/popup.html?tab=${chatTabId}`);
await chatView.locator('[data-testid="chat-panel"] [data-skill-url]').first().waitFor({ timeout: 10_000 });
await snap(chatView, '6-popup-chat-view.png');

// The setting itself, on the options page.
await settingsPage.setViewportSize({ width: 900, height: 700 });
await settingsPage.reload();
const field = settingsPage.locator('#set-chatSites');
await field.waitFor({ timeout: 10_000 });
await field.scrollIntoViewIfNeeded();
await settingsPage.screenshot({ path: join(shots, '7-options-chat-sites.png') });
console.log('  saved 7-options-chat-sites.png');

console.log(`\nscreenshots: ${shots}`);
await shutdown();
