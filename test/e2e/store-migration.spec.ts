// The trust store's schema-4 → 5 migration in the real browser engines: the skills store is
// copied under its new key (with an archive's file-set digest) and renamed, and the running byte totals
// are computed. Node's fake-indexeddb imitates IndexedDB; here Chromium's and Firefox's own do it, on a
// plain loopback page with the store bundled (test/e2e/support/store-page.ts).
import { chromium, expect, test } from '@playwright/test';
import puppeteer from 'puppeteer-core';
import { existsSync } from 'node:fs';
import { CHROMIUM } from './support/extension';
import { serveStorePage, type MigrationResult } from './support/store-page';
import type { TestServer } from '../support/server';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
let server: TestServer;

test.beforeAll(async () => {
  server = await serveStorePage();
});
test.afterAll(async () => {
  await server?.close();
});

function check(r: MigrationResult): void {
  expect(r.version).toBe(5);
  expect(r.keyPath).toEqual(['origin', 'url', 'digestLf', 'filesKey']);
  expect(r.indexes).toEqual(['by-origin-storedAt', 'by-origin-storedAt-size', 'by-origin-url-storedAt', 'by-record-size', 'by-storedAt-size']);
  expect(r.rawSkills.map((s) => [s.url, s.filesKey, s.size]).sort()).toEqual([
    ['https://a.example/a/SKILL.md', '', 50],
    ['https://a.example/r.zip', '', 34],
  ]);
  expect(r.totals).toEqual({ 'https://a.example': 84, '*': 84 });
  // The archive of version 4 is found as before; neither it nor its approval binds any files.
  expect(r.legacy).toEqual({ found: true, filesDigest: null });
  expect(r.approvalArchive).toBeNull();
  expect(r.afterWrite).toEqual({ 'https://a.example': 100, '*': 100 });
}

/** The page steps both engines run: open the store page, migrate, report. */
interface AnyPage {
  goto(url: string): Promise<unknown>;
  evaluate<T>(fn: () => Promise<T>): Promise<T>;
}

async function migrationIn(page: AnyPage): Promise<MigrationResult> {
  await page.goto(server.origin + '/index.html');
  return (await page.evaluate(() => (globalThis as unknown as { skillpinStoreMigration: (n: string) => Promise<unknown> }).skillpinStoreMigration('skillpin'))) as MigrationResult;
}

test('Chromium migrates a schema-4 trust database', async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    check(await migrationIn(await browser.newPage()));
  } finally {
    await browser.close();
  }
});

test('Firefox migrates a schema-4 trust database', async () => {
  // No skipping: a machine without Firefox fails here, as the Firefox suite does.
  expect(existsSync(FIREFOX), `Firefox is not at ${FIREFOX}: install Firefox ESR or set FIREFOX_PATH`).toBe(true);
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  try {
    check(await migrationIn(await browser.newPage()));
  } finally {
    await browser.close();
  }
});
