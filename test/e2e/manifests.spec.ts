// What a test build adds to reach the extension stays out of the production builds: no
// web-accessible pages (any site could frame the popup), no clipboardRead, and no test hooks in
// the scripts (the e2e builds' listener record, entrypoints/background/e2e-record.ts). The
// Chromium suites run the Chrome e2e build: its manifest is the production one.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFirefoxBuild, FIREFOX_EXTENSION_DIR } from './firefox/support';
import { EXTENSION_DIR, PRODUCTION_DIR } from './support/extension';
import { testHooksIn } from '../../scripts/lib/package-check.mjs';

function manifest(dir: string): { web_accessible_resources?: unknown; permissions?: string[] } {
  return JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as { web_accessible_resources?: unknown; permissions?: string[] };
}

/** Every file of a build folder, as a package check reads a zip. */
function files(dir: string, prefix = ''): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) Object.assign(out, files(dir, rel));
    else out[rel] = new Uint8Array(readFileSync(join(dir, rel)));
  }
  return out;
}

test('production builds carry no test-only entries or test hooks; the e2e builds do, and the Chrome one only its listener record', () => {
  if (!existsSync(`${PRODUCTION_DIR}/manifest.json`)) execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });
  if (!existsSync('.output/firefox-mv3/manifest.json')) execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { stdio: 'inherit' });
  ensureFirefoxBuild();
  for (const dir of [PRODUCTION_DIR, '.output/firefox-mv3']) {
    const m = manifest(dir);
    expect(m.web_accessible_resources, dir).toBeUndefined();
    expect(m.permissions, dir).not.toContain('clipboardRead');
    expect(testHooksIn(files(dir)), dir).toEqual([]);
  }
  const e2e = manifest(FIREFOX_EXTENSION_DIR);
  expect(e2e.web_accessible_resources).toEqual([{ resources: ['popup.html', 'options.html', 'sidepanel.html'], matches: ['http://127.0.0.1/*'] }]);
  expect(e2e.permissions).toContain('clipboardRead');
  expect(testHooksIn(files(FIREFOX_EXTENSION_DIR))).toEqual(['background.js: skillpinTest']);
  // What the Chromium suites load: the production manifest, and the listener record in the background.
  expect(manifest(EXTENSION_DIR)).toEqual(manifest(PRODUCTION_DIR));
  expect(testHooksIn(files(EXTENSION_DIR))).toEqual(['background.js: skillpinTest']);
});
