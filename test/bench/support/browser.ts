// Chromium for the benchmarks: the same flags as the end-to-end launcher, with or without the
// built extension, so that the A/B pairs differ in the extension alone.
import { chromium, type BrowserContext, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM, workerReady } from '../../e2e/support/extension';
import { BROWSER_ARGS } from '../../../scripts/lib/chromium.mjs';

/** The extension the bench run built (scripts/bench.mjs: wxt build -c test/bench/wxt.bench.config.ts). */
export const BENCH_EXTENSION_DIR = resolve(process.env.BENCH_EXTENSION_DIR ?? '.output/bench/chrome-mv3');

const COMMON_ARGS = BROWSER_ARGS;

export interface BenchBrowser {
  context: BrowserContext;
  /** The extension's service worker (once its listeners are registered); null without the extension. */
  sw: Worker | null;
  extensionId: string | null;
  close(): Promise<void>;
}

/**
 * A Chromium for the benches: with Skillpin (true), without any extension (false), or with another
 * extension folder (`{ dir }`: the empty extension of support/empty-extension.ts, whose worker
 * registers no listener, so it is not waited for).
 */
export async function launchBench(extension: boolean | { dir: string }): Promise<BenchBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'skillpin-bench-'));
  const dir = extension === true ? BENCH_EXTENSION_DIR : extension === false ? null : extension.dir;
  const args = dir ? [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`, ...COMMON_ARGS] : ['--disable-extensions', ...COMMON_ARGS];
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args });
  let sw: Worker | null = null;
  let extensionId: string | null = null;
  if (dir) {
    sw = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? null;
    if (!sw) sw = await context.waitForEvent('serviceworker', { timeout: 30_000 });
    if (extension === true) await workerReady(sw);
    extensionId = new URL(sw.url()).host;
  }
  return {
    context,
    sw,
    extensionId,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium's version string, e.g. "Chromium 156.0…". */
export function browserVersion(b: BenchBrowser): string {
  return b.context.browser()?.version() ?? 'unknown';
}
