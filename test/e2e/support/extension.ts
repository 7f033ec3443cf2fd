// Playwright fixtures: a persistent Chromium profile with the built extension loaded,
// the extension id, its service worker after the readiness signal, and helpers to
// talk to the background the way the popup does.
import { test as base, chromium, expect, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromiumPath, extensionArgs } from '../../../scripts/lib/chromium.mjs';

export const EXTENSION_DIR = resolve('.output/chrome-mv3');
export const CHROMIUM = chromiumPath();

/** How a browser is started besides its flags: its environment and page locale (a UI language run). */
export interface LaunchOptions {
  env?: Record<string, string>;
  locale?: string;
}

/** `extraArgs`: more Chromium flags (e.g. host resolver rules for the test composers). */
export async function launch(profileDir: string, extraArgs: string[] = [], options: LaunchOptions = {}): Promise<{ context: BrowserContext; sw: Worker; extensionId: string }> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...extensionArgs(EXTENSION_DIR), ...extraArgs],
    ...(options.env ? { env: { ...(process.env as Record<string, string>), ...options.env } } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    permissions: ['clipboard-read', 'clipboard-write'],
    ignoreHTTPSErrors: extraArgs.length > 0,
  });
  let sw = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
  if (!sw) sw = await context.waitForEvent('serviceworker', { timeout: 30_000 });
  await sw.evaluate(() => globalThis.skillpinReady);
  const extensionId = new URL(sw.url()).host;
  return { context, sw, extensionId };
}

export interface ExtensionFixtures {
  profileDir: string;
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  /** An extension page (options) used to send messages as the popup would. */
  extPage: Page;
}

export const test = base.extend<ExtensionFixtures>({
  // eslint-disable-next-line no-empty-pattern
  profileDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'skillpin-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  context: async ({ profileDir }, use) => {
    const { context } = await launch(profileDir);
    await use(context);
    await context.close();
  },
  sw: async ({ context }, use) => {
    let sw = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
    if (!sw) sw = await context.waitForEvent('serviceworker');
    await sw.evaluate(() => globalThis.skillpinReady);
    await use(sw);
  },
  extensionId: async ({ sw }, use) => {
    await use(new URL(sw.url()).host);
  },
  extPage: async ({ context, extensionId }, use) => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    await use(page);
    await page.close();
  },
});

export { expect };

/** Sends a runtime message from an extension page, exactly as the popup does. */
export async function send<T = unknown>(page: Page, message: Record<string, unknown>): Promise<T> {
  return page.evaluate((m) => chrome.runtime.sendMessage(m), message) as Promise<T>;
}

/** The badge text of a tab, read in the service worker. */
export async function badgeText(sw: Worker, tabId: number): Promise<string> {
  return sw.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);
}

/** The id of the tab showing `page`, resolved in the service worker by URL. */
export async function tabIdOf(sw: Worker, page: Page): Promise<number> {
  const url = page.url();
  const id = await sw.evaluate(async (u) => {
    const tabs = await chrome.tabs.query({});
    return tabs.find((t) => t.url === u)?.id ?? -1;
  }, url);
  if (id < 0) throw new Error(`no tab for ${url}`);
  return id;
}

/** Waits until the origin's report is done (the probe runs after navigation commits). */
export async function waitForReport<R extends { state: string }>(page: Page, origin: string, timeoutMs = 20_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await send<R | null>(page, { type: 'skillpin:report', origin });
    if (r && r.state !== 'probing') return r;
    if (Date.now() > deadline) throw new Error(`no finished report for ${origin}`);
    await page.waitForTimeout(100);
  }
}
