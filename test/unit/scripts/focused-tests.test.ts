// A focused test (`.only`) runs alone and drops the rest of the suite without a word; a skipped
// one drops itself. Both are errors in test/ (biome.jsonc, checked here on a file written for the
// check under test/ and removed again), and a focused Playwright test fails the run under CI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

let n = 0;

/** Lints `source` as a file in test/<folder>/ (not named like a test, so no runner collects it). */
function lint(folder: 'unit' | 'e2e', source: string): { status: number | null; out: string } {
  const dir = join('test', folder, `lint-probe-${process.pid}-${n++}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'probe.ts'), source);
    const r = spawnSync('npx', ['biome', 'lint', dir], { encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('focused and skipped tests', () => {
  it.each<['unit' | 'e2e', string, string]>([
    ['unit', "import { it } from 'vitest';\nit.only('runs alone', () => {});\n", 'noFocusedTests'],
    ['unit', "import { describe, it } from 'vitest';\ndescribe.only('runs alone', () => { it('a', () => {}); });\n", 'noFocusedTests'],
    ['unit', "import { it } from 'vitest';\nit.skip('dropped', () => {});\n", 'noSkippedTests'],
    ['e2e', "import { test } from '@playwright/test';\ntest.only('runs alone', async () => {});\n", 'noFocusedTests'],
    ['e2e', "import { test } from '@playwright/test';\ntest.skip(true, 'not here');\ntest('a', async () => {});\n", 'noSkippedTests'],
  ])(
    'test/%s: %j is a lint error',
    (path, source, rule) => {
      const r = lint(path, source);
      expect(r.out).toContain(`lint/suspicious/${rule}`);
      expect(r.status, r.out).not.toBe(0);
    },
    60_000,
  );

  it('a plain test passes the lint (the check above is not Biome failing on everything)', () => {
    const r = lint('unit', "import { expect, it } from 'vitest';\nit('runs', () => expect(1).toBe(1));\n");
    expect(r.status, r.out).toBe(0);
  }, 60_000);

  it('Playwright forbids a focused test under CI', async () => {
    const before = process.env['CI'];
    process.env['CI'] = 'true';
    try {
      const { default: config } = await import('../../../playwright.config');
      expect(config.forbidOnly).toBe(true);
    } finally {
      if (before === undefined) delete process.env['CI'];
      else process.env['CI'] = before;
    }
  });
});
