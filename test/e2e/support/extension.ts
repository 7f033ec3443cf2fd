// Playwright fixtures: a persistent Chromium profile with the built extension loaded,
// the extension id, its service worker once its listeners are registered, and helpers to
// talk to the background the way the popup does.
import { test as base, chromium, expect, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromiumPath, extensionArgs } from '../../../scripts/lib/chromium.mjs';

/**
 * The end-to-end build (SKILLPIN_E2E_BUILD=1 npx wxt build; global-setup.ts builds it): the
 * production build, manifest and all, whose background also records its listener functions for
 * the events no test can cause (support/listeners.ts). test/e2e/manifests.spec.ts checks the two
 * differ in that alone.
 */
export const EXTENSION_DIR = resolve('.output/e2e/chrome-mv3');
/** The production build (npx wxt build), which the store package is made from. */
export const PRODUCTION_DIR = resolve('.output/chrome-mv3');
export const CHROMIUM = chromiumPath();

/**
 * Resolves once the background has registered its listeners (TOOLCHAIN.md §2.1 "Race"): the
 * worker is reported before its script has run, and an event sent before then is lost. Every
 * listener is registered in one synchronous run, so the last one being there means all are.
 */
export async function workerReady(sw: Worker, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await sw.evaluate(() => chrome.runtime.onMessage.hasListeners() && chrome.runtime.onStartup.hasListeners()).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`the extension's background registered no listeners within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Resolves once the background has read the organisation's policy, which it keeps in session
 * storage (lib/background/policy-cache.ts). Chromium answers managed storage slowly at start (1–2.5 s
 * seen here), and until the policy is known every probe is refused (PRODUCT.md §10): a test that
 * probes at once would meet that refusal instead of what it tests.
 */
export async function policyRead(sw: Worker, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await sw.evaluate(async () => (await chrome.storage.session.get('skillpin:policy'))['skillpin:policy'] !== undefined).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`the extension's background read no policy within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens an extension page and waits for the background's own readiness answer (`skillpin:ready`: listeners up, store open). */
export async function openReadyPage(context: BrowserContext, extensionId: string, path = 'options.html'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/${path}`);
  await expect
    .poll(
      () =>
        send<{ ready?: boolean }>(page, { type: 'skillpin:ready' }).then(
          (r) => r?.ready === true,
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  return page;
}

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
  await workerReady(sw);
  await policyRead(sw);
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
    await workerReady(sw);
    await use(sw);
  },
  extensionId: async ({ sw }, use) => {
    await use(new URL(sw.url()).host);
  },
  extPage: async ({ context, extensionId }, use) => {
    const page = await openReadyPage(context, extensionId);
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
