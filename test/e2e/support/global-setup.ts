import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildComposers } from '../composers/build';
import { EXTENSION_DIR } from './extension';

// Builds the Chrome end-to-end build once per run (SKILLPIN_E2E_BUILD=1: the production build
// plus the listener record, see support/extension.ts), unless the caller already did
// (SKIP_BUILD=1), and bundles the test composer pages (real editors, test/e2e/composers).
export default async function globalSetup(): Promise<void> {
  if (!(process.env.SKIP_BUILD === '1' && existsSync(`${EXTENSION_DIR}/manifest.json`))) {
    execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit', env: { ...process.env, SKILLPIN_E2E_BUILD: '1' } });
  }
  await buildComposers();
}
