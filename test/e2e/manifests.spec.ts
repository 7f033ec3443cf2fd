// What a test build adds to reach the extension's pages stays out of the production
// builds: no web-accessible pages (any site could frame the popup) and no clipboardRead.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { ensureFirefoxBuild, FIREFOX_EXTENSION_DIR } from './firefox/support';

function manifest(dir: string): { web_accessible_resources?: unknown; permissions?: string[] } {
  return JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as { web_accessible_resources?: unknown; permissions?: string[] };
}

test('production manifests carry no test-only entries; the Firefox e2e build does', () => {
  if (!existsSync('.output/firefox-mv3/manifest.json')) execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { stdio: 'inherit' });
  ensureFirefoxBuild();
  for (const dir of ['.output/chrome-mv3', '.output/firefox-mv3']) {
    const m = manifest(dir);
    expect(m.web_accessible_resources, dir).toBeUndefined();
    expect(m.permissions, dir).not.toContain('clipboardRead');
  }
  const e2e = manifest(FIREFOX_EXTENSION_DIR);
  expect(e2e.web_accessible_resources).toEqual([{ resources: ['popup.html', 'options.html'], matches: ['http://127.0.0.1/*'] }]);
  expect(e2e.permissions).toContain('clipboardRead');
});
