// @ts-check
// `npm run demo`: builds the extension, writes a demo publisher site with five signed
// skills (a fresh key each run), serves it and a mock chat page on 127.0.0.1, and
// opens Chromium with Skillpin loaded and pinned to the toolbar, the demo site the only
// tab. With a display it stays open for you to click around (Ctrl+C to stop); without
// one it runs headless, walks the same journey (plus a content change and a new key),
// saves screenshots and journey.json (tabs, badge, pin state, the exported ZIP) into a folder it
// prints (DEMO_SHOTS overrides it). Downloads go into .demo/downloads/ under their own names
// (DEMO_DOWNLOADS overrides it). DEMO_LANG=de starts the browser in German. The setup is
// scripts/lib/demo-session.mjs.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromiumPath } from './lib/chromium.mjs';
import { buildOnce, changeSkill, DEMO_SKILLS, ROOT, rotateKey, startDemo, waitForSite } from './lib/demo-session.mjs';
import { buttonLabel, buttonName, demoLanguage } from './lib/demo-words.mjs';

const root = ROOT;
const browserPath = chromiumPath();
const headed = !!process.env.DISPLAY && process.env.HEADLESS !== '1';
// The language the browser shows Skillpin in: the steps below name its buttons in it.
const lang = demoLanguage(process.env);
// DEMO_STAY=1: stay open after the first screen without a window too (as with a display).
const stay = headed || process.env.DEMO_STAY === '1';
const shots = process.env.DEMO_SHOTS ? resolve(process.env.DEMO_SHOTS) : join(root, '.demo/screenshots');
const downloads = process.env.DEMO_DOWNLOADS ? resolve(process.env.DEMO_DOWNLOADS) : join(root, '.demo/downloads');

if (!existsSync(browserPath)) {
  console.error(`Chromium not found at ${browserPath}. Install the 'chromium' package (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}

buildOnce();
const demo = await startDemo({ headless: !headed, downloads, lang: process.env.DEMO_LANG || undefined });
const { context, worker, extensionId, site, chat, keys, pinned } = demo;
console.log(`demo publisher: ${site.origin}/  (key ${keys.publicKeyB64})`);
console.log(`mock chat:      ${chat.origin}/index.html`);
console.log(`browser profile: ${demo.profile} (deleted when the demo stops)`);
console.log(`downloads:      ${downloads} (an export for upload is saved here)`);
console.log(`chat sites:     ${chat.origin} (Settings → Other chat sites)`);
console.log(`desktop folder: ${demo.desktop.dir} (the desktop program's home and data for this demo; deleted when the demo stops)`);

const shutdown = () => demo.close();
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => void shutdown().then(() => process.exit(0)));

// The first screen: the demo publisher in the only tab, in front.
const page = context.pages()[0] ?? (await context.newPage());
for (const other of context.pages()) if (other !== page) await other.close();
await page.goto(`${site.origin}/`);
await page.bringToFront();

/** The open tabs as the browser lists them. */
const tabList = demo.tabList;
const publisherTab = (await tabList()).find((t) => t.url === page.url());
/** @param {number} tabId */
async function badgeOf(tabId) {
  for (let i = 0; i < 200; i++) {
    const text = await worker.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);
    if (text) return text;
    await page.waitForTimeout(100);
  }
  return '';
}
const badge = publisherTab ? await badgeOf(publisherTab.id) : '';
/** The badge's colour on a tab, as Chromium holds it ([r, g, b, a]; the store images draw it). */
const badgeColorOf = (/** @type {number} */ tabId) => worker.evaluate((id) => chrome.action.getBadgeBackgroundColor({ tabId: id }), tabId);
const badgeColor = publisherTab ? await badgeColorOf(publisherTab.id) : null;
console.log(`badge:          ${badge || '(none)'} on the demo publisher tab; Skillpin ${pinned ? 'is pinned to the toolbar' : 'is NOT pinned (see the extensions menu)'}`);

if (stay) {
  const icon = pinned
    ? 'the Skillpin icon (a green pin with a check mark) right of the address bar'
    : 'the puzzle-piece Extensions icon right of the address bar, then the pin next to Skillpin, then the Skillpin icon (a green pin with a check mark)';
  console.log('\nChromium is open on the demo publisher, its only tab. What to click:');
  console.log(`  1. Click ${icon}, showing ${badge || 'its badge'}: the popup lists the site's ${DEMO_SKILLS.length} verified skills.`);
  console.log(`  2. In the popup, click ${buttonName('approve', lang)} on a skill (e.g. ${DEMO_SKILLS[0]?.name}).`);
  console.log(`  3. Open a new tab on the mock chat: ${chat.origin}/index.html`);
  console.log(`  4. There, click the Skillpin icon again, then ${buttonName('insert_into_chat', lang)}: the skill lands in the chat's message box.`);
  console.log('\nDesktop agents (README, "Use a skill in your desktop agent"), for this demo only:');
  console.log(`  5. Open Skillpin's settings (chrome-extension://${extensionId}/options.html#desktop), Desktop agents, turn it on and allow what the browser asks.`);
  console.log(`  6. In a terminal in ${root}:\n       ${demo.desktop.installCommand}`);
  console.log(`  7. Press ${buttonName('desktop_check', lang)} and tick the agents: approved skills appear under ${demo.desktop.home}/ (.claude/skills, .agents/skills, …), never in your own home.`);
  console.log('Ctrl+C stops the demo and deletes its browser profile.');
  await new Promise(() => undefined);
}

// Headless: walk the same journey and keep screenshots.
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
/** @type {string[]} */
const saved_ = [];
/** @param {import('playwright-core').Page} p @param {string} name @param {boolean} [fullPage] */
const snap = async (p, name, fullPage = true) => {
  await p.screenshot({ path: join(shots, name), fullPage });
  saved_.push(name);
  console.log(`  saved ${name}`);
};

// 1. The first screen, exactly as the browser holds it: which tabs exist, which is in front.
const firstTabs = await tabList();
await snap(page, '01-publisher.png', false);

/** @param {import('playwright-core').Page} p */
const waitDone = (p) => waitForSite(demo, p);

const popupUrl = `chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`;
const popup = await context.newPage();
await popup.setViewportSize({ width: 400, height: 640 });
await popup.goto(popupUrl);
const report = await waitDone(popup);
console.log(`\n${report.skills.length} skills found: ${report.skills.map((/** @type {{name: string, status: string}} */ s) => `${s.name} (${s.status})`).join(', ')}`);
await popup.reload();
await popup.locator('[data-skill-url]').first().waitFor({ timeout: 10_000 });
await snap(popup, '02-popup-list.png');

const first = popup.locator('[data-skill-url]').first();
const approvedUrl = await first.getAttribute('data-skill-url');
const approvedSkill = report.skills.find((/** @type {{ url: string | null }} */ s) => s.url === approvedUrl);
const details = first.getByRole('button', { name: /details/i });
if (await details.count()) {
  await details.first().click();
  await popup.waitForTimeout(300);
  await snap(popup, '03-popup-details.png');
  const back = popup.getByRole('button', { name: /back/i });
  if (await back.count()) await back.first().click();
}
const approve = popup
  .locator('[data-skill-url]')
  .first()
  .getByRole('button', { name: buttonLabel('approve', lang) });
await approve.first().click();
await popup
  .getByRole('button', { name: buttonLabel('insert_into_chat', lang) })
  .first()
  .waitFor({ state: 'attached', timeout: 10_000 })
  .catch(() => undefined);
await popup.waitForTimeout(300);
await snap(popup, '04-popup-approved.png');

// Open the mock chat as a user leaves it (nothing focused), then click the popup's own button.
const chatPage = await context.newPage();
await chatPage.goto(`${chat.origin}/index.html`);
const chatTabId = (await tabList()).find((t) => t.url === chatPage.url())?.id ?? -1;
await popup.bringToFront();
await popup.reload();
const insert = popup.locator('[data-skill-url]').getByRole('button', { name: buttonLabel('insert_into_chat', lang) });
await insert.first().waitFor({ timeout: 10_000 });
await insert.first().click();
const announced = popup.locator('[data-testid="announcer"]');
await popup.waitForFunction(() => (document.querySelector('[data-testid="announcer"]')?.textContent ?? '').trim() !== '', null, { timeout: 10_000 });
console.log(`popup says: ${(await announced.first().textContent())?.trim()}`);
await snap(popup, '05-popup-inserted.png');
await chatPage.waitForTimeout(300);
const held = await chatPage.locator('#composer-textarea').inputValue();
const sends = await chatPage.locator('#send-count').textContent();
console.log(`mock chat composer: ${held.length} chars, sends: ${sends}`);
await snap(chatPage, '06-mock-chat-inserted.png');

// Export for upload: the ZIP lands in the downloads folder under its own name.
await popup.bringToFront();
const exportButton = popup.locator(`[data-skill-url="${approvedUrl}"] [data-action="export"]`);
await exportButton.click();
await popup.waitForFunction(() => /\.zip/.test(document.querySelector('[data-testid="announcer"]')?.textContent ?? ''), null, { timeout: 10_000 });
const exportedName = /([\w.-]+\.zip)/.exec((await popup.locator('[data-testid="announcer"]').textContent()) ?? '')?.[1] ?? '';
/** @type {{ file: string, bytes: number } | null} */
let exported = null;
for (let i = 0; i < 100 && exportedName; i++) {
  const file = join(downloads, exportedName);
  if (existsSync(file) && statSync(file).size > 0) {
    exported = { file, bytes: statSync(file).size };
    break;
  }
  await popup.waitForTimeout(100);
}
console.log(exported ? `exported:       ${exported.file} (${exported.bytes} bytes)` : 'exported:       the ZIP did not arrive in the downloads folder');

// The popup on the chat tab: every approved skill, ready to insert there.
const chatView = await context.newPage();
await chatView.setViewportSize({ width: 400, height: 640 });
await chatView.goto(`chrome-extension://${extensionId}/popup.html?tab=${chatTabId}`);
await chatView.locator('[data-testid="chat-panel"] [data-skill-url]').first().waitFor({ timeout: 10_000 });
await snap(chatView, '07-popup-chat-view.png');
await chatView.close();

/** @param {import('playwright-core').Page} p */
const recheck = (p) => p.evaluate((o) => chrome.runtime.sendMessage({ type: 'skillpin:probe', origin: o }), site.origin);

// The publisher changes the approved SKILL.md (same key): the approval is suspended and the
// details show what changed.
const changedName = approvedSkill?.name ?? DEMO_SKILLS[0]?.name ?? '';
const changedSkills = changeSkill(demo, changedName);
const changed = await recheck(popup);
const changedStatus = changed.skills.find((/** @type {{ url: string | null }} */ s) => s.url === approvedUrl)?.status;
console.log(`\nafter a content change: ${changedName} is ${changedStatus}`);
await popup.reload();
await popup
  .locator('[data-skill-url]', { hasText: changedName })
  .first()
  .getByRole('button', { name: /review|details|changes/i })
  .first()
  .click();
await popup
  .getByText(/collector\.example/)
  .first()
  .waitFor({ timeout: 10_000 });
await snap(popup, '08-popup-content-changed.png');

// The publisher re-publishes with a new key: every skill is blocked until the user decides.
rotateKey(demo, changedSkills);
const rotated = await recheck(popup);
console.log(`after a new key: key ${rotated.key.state}, skills ${[...new Set(rotated.skills.map((/** @type {{ status: string }} */ s) => s.status))].join(', ')}`);
await popup.goto(popupUrl);
await popup
  .getByRole('button', { name: buttonLabel('trust_new_key', lang).replace(/…$/, '') })
  .first()
  .waitFor({ timeout: 10_000 });
await snap(popup, '09-popup-key-changed.png');
const keyBadge = publisherTab ? await worker.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), publisherTab.id) : '';
const keyBadgeColor = publisherTab ? await badgeColorOf(publisherTab.id) : null;

// The chat-site setting the demo made, on the options page.
const settingsPage = await context.newPage();
await settingsPage.setViewportSize({ width: 900, height: 700 });
await settingsPage.goto(`chrome-extension://${extensionId}/options.html`);
const field = settingsPage.locator('#set-chatSites');
await field.waitFor({ timeout: 10_000 });
await field.scrollIntoViewIfNeeded();
await snap(settingsPage, '10-options-chat-sites.png', false);

const journey = {
  extensionId,
  expectedExtensionId: demo.expectedId,
  pinnedToToolbar: pinned,
  publisher: `${site.origin}/`,
  chat: `${chat.origin}/index.html`,
  firstScreen: { tabs: firstTabs.map(({ url, active }) => ({ url, active })), badge, badgeColor },
  approved: changedName,
  contentChange: changedStatus,
  keyChange: { keyState: rotated.key.state, badge: keyBadge, badgeColor: keyBadgeColor },
  download: exported,
  screenshots: saved_,
};
writeFileSync(join(shots, 'journey.json'), JSON.stringify(journey, null, 2) + '\n');
console.log(`\nscreenshots: ${shots}`);
await shutdown();
