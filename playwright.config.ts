import { defineConfig } from '@playwright/test';

// One persistent Chromium at a time (2 cores); the extension is built once in globalSetup.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: process.env.CI ? 1 : 0,
  // A committed `test.only` would run one test and drop the rest (Biome's noFocusedTests flags it
  // too; npm test passes --forbid-only).
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
});
