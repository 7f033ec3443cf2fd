// @ts-check
// `npm run store:screens`: the store images in docs/store/images/, made from the demo. It runs the
// demo's headless journey (scripts/demo.mjs: builds the extension unless SKIP_BUILD=1, serves the
// demo publisher and the mock chat on 127.0.0.1, walks publisher → popup → details → approve →
// insert → key change), then composes five 1280×800 screenshots from what the demo saved (each
// popup at its real size beside the page it belongs to) and the 440×280 promo tile, rendered in
// headless Chromium from self-contained pages (scripts/lib/store-images.mjs). No request leaves
// 127.0.0.1: the composing browser is refused every request that is not inlined.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath } from './lib/chromium.mjs';
import { promoTileHtml, screenHtml } from './lib/store-images.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const out = join(root, 'docs/store/images');
// STORE_SHOTS=<dir>: compose from a folder a headless demo run already filled (DEMO_SHOTS), kept.
const reuse = process.env.STORE_SHOTS ? resolve(process.env.STORE_SHOTS) : null;
const shots = reuse ?? mkdtempSync(join(tmpdir(), 'skillpin-store-shots-'));

if (!reuse) {
  console.log('running the demo headless…');
  const demo = spawnSync(process.execPath, [join(root, 'scripts/demo.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, HEADLESS: '1', DEMO_STAY: '0', DEMO_SHOTS: shots },
  });
  if (demo.status !== 0) {
    console.error(`the demo failed (exit ${demo.status}); no image was written`);
    rmSync(shots, { recursive: true, force: true });
    process.exit(1);
  }
}

/** @type {{ publisher: string, chat: string, firstScreen: { badge: string, badgeColor?: number[] }, keyChange: { badge: string, badgeColor?: number[] } }} */
const journey = JSON.parse(readFileSync(join(shots, 'journey.json'), 'utf8'));
const shot = (/** @type {string} */ name) => readFileSync(join(shots, name));
const icon = readFileSync(join(root, 'public/icon/128.png'));

// Geometry (scripts/lib/store-images.mjs): the window starts 150 px down and ends 40 px above the
// bottom; beside a popup it is 758 px wide, and the demo's 1100 px pages are scaled to fit.
const PAGE_HEIGHT = 800 - 150 - 40 - 46;
const NARROW = 1280 - 48 - 24 - 402 - 48;
const POPUP_HEIGHT = PAGE_HEIGHT + 46;
const besidePopup = (/** @type {string} */ name) => ({ png: shot(name), scale: NARROW / 1100, width: NARROW, height: PAGE_HEIGHT });
const popup = (/** @type {string} */ name) => ({ png: shot(name), height: POPUP_HEIGHT });
const publisher = { url: journey.publisher, badge: journey.firstScreen.badge, badgeColor: journey.firstScreen.badgeColor, icon };

/** @type {{ file: string, spec: import('./lib/store-images.mjs').ScreenSpec }[]} */
const screens = [
  {
    file: 'screenshot-1-badge.png',
    spec: {
      ...publisher,
      headline: 'See which sites publish Agent Skills',
      sub: 'The badge on Skillpin’s toolbar icon counts the verified skills of the site you are on.',
      page: { png: shot('01-publisher.png'), scale: 1, width: 1184, height: PAGE_HEIGHT },
      windowWidth: 1184,
      zoom: true,
    },
  },
  {
    file: 'screenshot-2-popup.png',
    spec: {
      ...publisher,
      headline: 'Every skill, checked, in plain words',
      sub: 'Each file must match the fingerprint and the signature the site published.',
      page: besidePopup('01-publisher.png'),
      popup: popup('02-popup-list.png'),
      windowWidth: NARROW,
    },
  },
  {
    file: 'screenshot-3-details.png',
    spec: {
      ...publisher,
      headline: 'Read a skill before you approve it',
      sub: 'Its text, where it comes from, its fingerprints, its signature and the site’s key.',
      page: besidePopup('01-publisher.png'),
      popup: popup('03-popup-details.png'),
      windowWidth: NARROW,
    },
  },
  {
    file: 'screenshot-4-chat.png',
    spec: {
      url: journey.chat,
      badge: '',
      icon,
      headline: 'Your approved skills, one click from your chat',
      sub: '“Insert into chat” puts a skill into the message box. Skillpin never presses Send.',
      page: besidePopup('06-mock-chat-inserted.png'),
      popup: popup('07-popup-chat-view.png'),
      windowWidth: NARROW,
    },
  },
  {
    file: 'screenshot-5-key-changed.png',
    spec: {
      ...publisher,
      badge: journey.keyChange.badge,
      badgeColor: journey.keyChange.badgeColor,
      headline: 'Warned when a site’s key changes',
      sub: 'Both keys side by side. The skills stay blocked until you decide.',
      page: besidePopup('01-publisher.png'),
      popup: popup('09-popup-key-changed.png'),
      windowWidth: NARROW,
    },
  },
];

mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith('.png')) rmSync(join(out, f));

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: BROWSER_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  // The pages carry everything inline: anything else they would ask for is refused.
  await page.route('**/*', (route) => route.abort());
  for (const { file, spec } of screens) {
    await page.setContent(screenHtml(spec), { waitUntil: 'load' });
    await page.screenshot({ path: join(out, file), type: 'png' });
  }
  await page.setViewportSize({ width: 440, height: 280 });
  await page.setContent(promoTileHtml({ icon, name: 'Skillpin', line: 'Verified Agent Skills for your chat agent, only with your approval.' }), { waitUntil: 'load' });
  await page.screenshot({ path: join(out, 'promo-tile.png'), type: 'png' });
} finally {
  await browser.close();
  if (!reuse) rmSync(shots, { recursive: true, force: true });
}

for (const f of readdirSync(out).sort()) console.log(`  ${f}  ${Math.round(statSync(join(out, f)).size / 1024)} KiB`);
console.log(`store images: ${out}`);
