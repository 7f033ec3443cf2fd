// Runs every test suite and prints one closing line `N passed, N failed`.
// Filled in as the suites arrive: unit (vitest), type check, builds, e2e (playwright).
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync, mkdirSync } from 'node:fs';

let passed = 0;
let failed = 0;
mkdirSync('test-results', { recursive: true });

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function step(label, ok) {
  if (ok) passed++;
  else failed++;
  console.log(`${label}: ${ok ? 'ok' : 'FAILED'}`);
}

step('typecheck', run('typecheck', 'npx', ['tsc', '--noEmit']));

const unitJson = 'test-results/unit.json';
run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
if (existsSync(unitJson)) {
  const r = JSON.parse(readFileSync(unitJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numFailedTestSuites ?? 0);
  console.log(`unit: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
} else {
  failed++;
  console.log('unit: no results file');
}

step('build chrome', run('build chrome', 'npx', ['wxt', 'build']));
step('build firefox', run('build firefox', 'npx', ['wxt', 'build', '-b', 'firefox']));

if (!process.env.SKIP_E2E && existsSync('playwright.config.ts')) {
  const e2eJson = 'test-results/e2e.json';
  run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
  if (existsSync(e2eJson)) {
    const r = JSON.parse(readFileSync(e2eJson, 'utf8'));
    const s = r.stats ?? {};
    passed += s.expected ?? 0;
    failed += (s.unexpected ?? 0) + (s.flaky ?? 0) * 0;
    console.log(`e2e: ${s.expected ?? 0} passed, ${s.unexpected ?? 0} failed`);
  } else {
    failed++;
    console.log('e2e: no results file');
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
