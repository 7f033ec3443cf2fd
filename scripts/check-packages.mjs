// @ts-check
// Checks the store packages `npm run zip` wrote into .output/ (scripts/lib/package-check.mjs):
// the Chrome Web Store zip, the Firefox add-on zip and the sources zip. Prints each problem
// and exits 1 when there is one or a package is missing. Run after `npm run zip`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkExtensionZip, checkSourcesZip, readZip } from './lib/package-check.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = '.output';
/** @type {{ file: string, check: (files: Record<string, Uint8Array>) => string[] }[]} */
const packages = [
  { file: `${pkg.name}-${pkg.version}-chrome.zip`, check: (f) => checkExtensionZip(f, 'chrome') },
  { file: `${pkg.name}-${pkg.version}-firefox.zip`, check: (f) => checkExtensionZip(f, 'firefox') },
  { file: `${pkg.name}-${pkg.version}-sources.zip`, check: checkSourcesZip },
];

let failed = false;
for (const { file, check } of packages) {
  const path = join(out, file);
  if (!existsSync(path)) {
    console.log(`${file}: missing (run npm run zip)`);
    failed = true;
    continue;
  }
  const files = readZip(new Uint8Array(readFileSync(path)));
  const problems = check(files);
  console.log(`${file}: ${Object.keys(files).length} files, ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
  for (const p of problems) console.log(`  - ${p}`);
  if (problems.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
