import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildComposers } from '../composers/build';

// Builds the Chrome extension once per run, unless the caller already did (SKIP_BUILD=1),
// and bundles the test composer pages (real editors, test/e2e/composers).
export default async function globalSetup(): Promise<void> {
  if (!(process.env.SKIP_BUILD === '1' && existsSync('.output/chrome-mv3/manifest.json'))) {
    execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });
  }
  await buildComposers();
}
