import { defineConfig } from '@playwright/test';

// Benchmarks only (npm run bench drives this): never picked up by the e2e config, whose
// testDir is test/e2e. One worker: the machine has 2 cores and timings must not compete.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.bench.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 240_000,
  retries: 0,
  reporter: [['list']],
  outputDir: '../../test-results/bench-artifacts',
});
