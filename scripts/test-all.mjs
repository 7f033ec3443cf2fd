// @ts-check
// Runs every test suite and closes with the line `N passed, N failed, N skipped` (CI reads it),
// after a line with the number of tests that passed only on a retry. Tests write only under
// test-results/; the documents generated from their results are written by `npm run docs`.
// Lint (Biome), type check, unit (vitest), the builds and store packages, web-ext lint, end-to-end
// (Playwright runs the Chromium suites and the Firefox suite, which drives Firefox ESR with
// puppeteer-core). How a step is judged (exit status, errors outside tests, floors, skips under
// CI) is scripts/lib/test-run.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { closingLines, commandOutcome, runTestStep, stepLines, TEST_FLOORS } from './lib/test-run.mjs';

const ci = !!process.env.CI;
/** @type {import('./lib/test-run.mjs').Outcome[]} */
const outcomes = [];
mkdirSync('test-results', { recursive: true });

/** @type {import('./lib/test-run.mjs').ResultFiles} */
const files = {
  remove: (path) => rmSync(path, { force: true }),
  read: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
};

/** @param {string} label @param {string} cmd @param {string[]} args @param {Record<string, string>} [env] */
function exec(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return { status: r.status, signal: r.signal, error: r.error ? String(r.error) : undefined };
}

/** @param {import('./lib/test-run.mjs').Outcome} o */
function report(o) {
  outcomes.push(o);
  if (o.label === 'unit' || o.label === 'e2e') for (const line of stepLines(o)) console.log(line);
  else console.log(`${o.label}: ${o.failed === 0 ? 'ok' : `FAILED (${o.problems.join('; ')})`}`);
}

/** @param {string} label @param {string} cmd @param {string[]} args @param {Record<string, string>} [env] */
const step = (label, cmd, args, env) => report(commandOutcome(label, exec(label, cmd, args, env)));

step('lint', 'npx', ['biome', 'lint', '.']);
step('typecheck', 'npx', ['tsc', '--noEmit']);

const unitJson = 'test-results/unit.json';
const unit = runTestStep('vitest', {
  resultsFile: unitJson,
  exec: () => exec('unit', 'npx', ['vitest', 'run', '--allowOnly=false', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]),
  files,
  rules: { floor: TEST_FLOORS.unit, ci },
});
report(unit);
// The fixed-seed fuzz sample (test/unit/fuzz) is part of the unit run and counted there.
const unitText = files.read(unitJson);
if (unitText !== null) {
  try {
    const r = JSON.parse(unitText);
    const fuzz = (r.testResults ?? []).filter((/** @type {any} */ f) => /[\\/]test[\\/]unit[\\/]fuzz[\\/]/.test(f.name ?? '')).flatMap((/** @type {any} */ f) => f.assertionResults ?? []);
    const fuzzPassed = fuzz.filter((/** @type {any} */ a) => a.status === 'passed').length;
    console.log(`  of which fuzz sample and regressions: ${fuzzPassed} passed, ${fuzz.length - fuzzPassed} failed`);
  } catch {
    // the unit step already failed for it
  }
}

// `npm run zip` builds Chrome and Firefox and writes the three store packages; the check
// fails on a package that lacks a file it references or carries something test-only.
step('zip (chrome, firefox, sources)', 'npm', ['run', 'zip']);
step('store packages', 'node', ['scripts/check-packages.mjs']);
// The end-to-end builds (wxt.config.ts, SKILLPIN_E2E_BUILD=1) in .output/e2e/: what the
// Chromium and Firefox suites load.
step('build chrome (e2e build)', 'npx', ['wxt', 'build'], { SKILLPIN_E2E_BUILD: '1' });
step('build firefox (e2e build)', 'npx', ['wxt', 'build', '-b', 'firefox'], { SKILLPIN_E2E_BUILD: '1' });
// Fails on any finding from our own code; findings inside bundled libraries are listed.
step('web-ext lint (firefox)', 'node', ['scripts/lint-firefox.mjs']);

if (!process.env.SKIP_E2E) {
  const e2eJson = 'test-results/e2e.json';
  report(
    runTestStep('playwright', {
      resultsFile: e2eJson,
      exec: () => exec('e2e', 'npx', ['playwright', 'test', '--forbid-only', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson, SKIP_BUILD: '1' }),
      files,
      rules: { floor: TEST_FLOORS.e2e, ci },
    }),
  );
}

const { lines, ok } = closingLines(outcomes);
console.log('');
for (const line of lines) console.log(line);
process.exit(ok ? 0 : 1);
