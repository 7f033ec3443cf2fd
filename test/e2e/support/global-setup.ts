import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Builds the Chrome extension once per run, unless the caller already did (SKIP_BUILD=1).
export default function globalSetup(): void {
  if (process.env.SKIP_BUILD === '1' && existsSync('.output/chrome-mv3/manifest.json')) return;
  execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });
}
