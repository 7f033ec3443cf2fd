import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// Measurements of the code's shape, run on demand (not part of npm test):
//   npx vitest run -c test/measure/vitest.config.ts
export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['test/measure/**/*.measure.ts'],
    setupFiles: ['fake-indexeddb/auto'],
    testTimeout: 60000,
    pool: 'forks',
  },
});
