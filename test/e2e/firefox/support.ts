// Real Firefox ESR for the end-to-end tests, driven by puppeteer-core over WebDriver BiDi:
// the e2e build of the extension (SKILLPIN_E2E_BUILD=1, .output/e2e/firefox-mv3) installed
// as a temporary add-on with a fixed extension UUID, every host name resolved to
// 127.0.0.1 (so no request leaves loopback), the composers' test certificate accepted,
// and the extension's pages reached from a loopback web page (BiDi may not open
// moz-extension:// URLs itself: "not allowed in this context",
// https://bugzilla.mozilla.org/show_bug.cgi?id=1579790). The background is an event page: tests reach it through
// messages from an extension page, as the popup does.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, type TestServer } from '../../support/server';

export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const FIREFOX_EXTENSION_DIR = resolve('.output/e2e/firefox-mv3');
export const GECKO_ID = 'skillpin@skillpin.dev';
/** The extension's pages live at moz-extension://<this>/… in every test profile. */
export const EXTENSION_UUID = '6f1d2c3b-5a4e-4f60-8b7a-51c1a9e2d0f4';
export const EXTENSION_BASE = `moz-extension://${EXTENSION_UUID}/`;

/** Builds the Firefox e2e build unless it is there already (SKIP_BUILD=1 keeps an existing one). */
export function ensureFirefoxBuild(): void {
  if (process.env.SKIP_BUILD === '1' && existsSync(join(FIREFOX_EXTENSION_DIR, 'manifest.json'))) return;
  execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { stdio: 'inherit', env: { ...process.env, SKILLPIN_E2E_BUILD: '1' } });
}

export interface FirefoxSession {
  browser: Browser;
  profileDir: string;
  /** A loopback page the extension's pages are opened from. */
  launcher: TestServer;
  close(): Promise<void>;
}

export interface FirefoxLaunchOptions {
  /** false: the same browser without Skillpin (for comparisons). Default true. */
  extension?: boolean;
  /** More preferences, on top of the ones every test profile gets. */
  prefs?: Record<string, unknown>;
  /** More environment for the browser (e.g. a test HOME, where Firefox reads user native-messaging manifests). */
  env?: Record<string, string>;
}

export async function launchFirefox(profileDir: string, options: FirefoxLaunchOptions = {}): Promise<FirefoxSession> {
  if (!existsSync(FIREFOX)) {
    throw new Error(`Firefox is not at ${FIREFOX}: install Firefox ESR (apt-get install firefox-esr) or set FIREFOX_PATH`);
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profileDir,
    acceptInsecureCerts: true,
    ...(options.env ? { env: { ...(process.env as Record<string, string>), ...options.env } } : {}),
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }),
      // Kept across the reinstall that follows a restart (a temporary add-on leaves at shutdown).
      'extensions.webextensions.keepStorageOnUninstall': true,
      'extensions.webextensions.keepUuidOnUninstall': true,
      'network.dns.forceResolve': '127.0.0.1',
      'network.dns.disableIPv6': true,
      'dom.events.asyncClipboard.clipboardItem': true,
      ...options.prefs,
    },
  });
  if (options.extension !== false) await browser.installExtension(FIREFOX_EXTENSION_DIR);
  const launcher = await startServer({ files: { '/index.html': '<!doctype html><title>launcher</title><p>launcher</p>' } });
  return {
    browser,
    profileDir,
    launcher,
    close: async () => {
      await browser.close().catch(() => undefined);
      await launcher.close();
    },
  };
}

export function newProfileDir(): string {
  return mkdtempSync(join(tmpdir(), 'skillpin-ff-'));
}

export function removeProfileDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Opens an extension page (e.g. `options.html`, `popup.html?origin=…`) in a new tab. */
export async function openExtensionPage(session: FirefoxSession, path: string): Promise<Page> {
  const page = await session.browser.newPage();
  await page.goto(session.launcher.url('/index.html'));
  const target = EXTENSION_BASE + path;
  await page.evaluate((u) => {
    location.href = u;
  }, target);
  // BiDi does not report this navigation as one: poll the document until it is the extension page.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const here = await page
      .evaluate(() => (document.readyState === 'complete' && typeof (globalThis as { browser?: { runtime?: unknown } }).browser?.runtime === 'object' ? location.href : ''))
      .catch(() => '');
    if (here === target) return page;
    if (Date.now() > deadline) throw new Error(`could not open ${target}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Sends a runtime message from an extension page, exactly as the popup does. */
export async function ffSend<T = unknown>(page: Page, message: Record<string, unknown>): Promise<T> {
  return page.evaluate((m) => (globalThis as unknown as { browser: { runtime: { sendMessage(x: unknown): Promise<unknown> } } }).browser.runtime.sendMessage(m), message) as Promise<T>;
}

/** The id of the tab whose URL is `url`, asked from an extension page. */
export async function ffTabId(extPage: Page, url: string): Promise<number> {
  const id = await extPage.evaluate(async (u) => {
    const tabs = await (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).browser.tabs.query({});
    return tabs.find((t) => t.url === u)?.id ?? -1;
  }, url);
  if (id < 0) throw new Error(`no tab for ${url}`);
  return id;
}

/** Waits until the origin's report is done. */
export async function ffWaitForReport<R extends { state: string }>(extPage: Page, origin: string, timeoutMs = 20_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await ffSend<R | null>(extPage, { type: 'skillpin:report', origin });
    if (r && r.state !== 'probing') return r;
    if (Date.now() > deadline) throw new Error(`no finished report for ${origin}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Approves `name` with the popup's own Approve button, and its one confirmation when it asks one. */
export async function approveWithPopup(ff: FirefoxSession, ext: Page, site: { origin: string }, name: string): Promise<string> {
  const report = await ffWaitForReport<{ state: string; skills: { name: string; url: string | null }[] }>(ext, site.origin);
  const skill = report.skills.find((s) => s.name === name);
  if (!skill?.url) throw new Error(`${name} missing`);
  const popup = await openExtensionPage(ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
  const card = `[data-skill-url="${skill.url}"]`;
  await popup.waitForSelector(`${card} [data-action="approve"]`);
  await popup.click(`${card} [data-action="approve"]`);
  await popup.waitForSelector(`${card} [data-action="copy"], [role="alertdialog"]`);
  if (await popup.$('[role="alertdialog"]')) await popup.click('[role="alertdialog"] .dialog-actions button.btn-danger');
  await popup.waitForSelector(`${card} [data-action="copy"]`);
  await popup.close();
  return skill.url;
}
