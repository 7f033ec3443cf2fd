// Runs every test suite and prints one closing line `N passed, N failed`. Tests write only under
// test-results/; the documents generated from their results are written by `npm run docs`.
// Lint (Biome), type check, unit (vitest), the builds and store packages, web-ext lint, end-to-end (Playwright runs the
// Chromium suites and the Firefox suite, which drives Firefox ESR with puppeteer-core).
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

step('lint', run('lint', 'npx', ['biome', 'lint', '.']));
step('typecheck', run('typecheck', 'npx', ['tsc', '--noEmit']));

const unitJson = 'test-results/unit.json';
run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
if (existsSync(unitJson)) {
  const r = JSON.parse(readFileSync(unitJson, 'utf8'));
  // A test file that fails to load has no assertions: count it as one failure.
  const broken = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
  passed += r.numPassedTests;
  failed += r.numFailedTests + broken;
  console.log(`unit: ${r.numPassedTests} passed, ${r.numFailedTests + broken} failed`);
  // The fixed-seed fuzz sample (test/unit/fuzz) is part of the unit run and counted there.
  const fuzz = (r.testResults ?? []).filter((f) => /[\\/]test[\\/]unit[\\/]fuzz[\\/]/.test(f.name ?? '')).flatMap((f) => f.assertionResults ?? []);
  const fuzzPassed = fuzz.filter((a) => a.status === 'passed').length;
  console.log(`  of which fuzz sample and regressions: ${fuzzPassed} passed, ${fuzz.length - fuzzPassed} failed`);
} else {
  failed++;
  console.log('unit: no results file');
}

// `npm run zip` builds Chrome and Firefox and writes the three store packages; the check
// fails on a package that lacks a file it references or carries something test-only.
step('zip (chrome, firefox, sources)', run('zip', 'npm', ['run', 'zip']));
step('store packages', run('store packages', 'node', ['scripts/check-packages.mjs']));
step('build firefox (e2e build)', run('build firefox e2e', 'npx', ['wxt', 'build', '-b', 'firefox'], { SKILLPIN_E2E_BUILD: '1' }));
// Fails on any finding from our own code; findings inside bundled libraries are listed.
step('web-ext lint (firefox)', run('web-ext lint', 'node', ['scripts/lint-firefox.mjs']));

if (!process.env.SKIP_E2E && existsSync('playwright.config.ts')) {
  const e2eJson = 'test-results/e2e.json';
  run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson, SKIP_BUILD: '1' });
  if (existsSync(e2eJson)) {
    const r = JSON.parse(readFileSync(e2eJson, 'utf8'));
    const s = r.stats ?? {};
    // A flaky test passed on its retry: it counts as passed and is named in the log.
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
    console.log(`e2e: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed (${s.flaky ?? 0} on retry), ${s.unexpected ?? 0} failed`);
  } else {
    failed++;
    console.log('e2e: no results file');
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
