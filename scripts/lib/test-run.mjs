// @ts-check
// How `npm test` (scripts/test-all.mjs) judges each step, free of the real suites so that
// test/unit/scripts/test-run.test.ts can feed it crashing, erroring and empty runs. A step fails
// when its command exits non-zero (or is killed), when its runner reports an error outside any
// test (a file that does not load, a hook or a global setup that throws, an unhandled rejection),
// when it ran fewer tests than its floor, or, under CI, when a test skipped. The results file a
// runner writes is removed before the run, so a run that writes nothing is never read as the
// previous one.

/**
 * Fewer tests than this in a step means tests went missing (a folder no longer matched, a file
 * that no longer loads, a runner that stopped early). A little under the counts of 2026-12
 * (2249 unit tests, 101 end-to-end tests in Chromium and Firefox): raise them as the suites grow.
 */
export const TEST_FLOORS = { unit: 2200, e2e: 96 };

/**
 * @typedef {{ status: number | null, signal?: string | null, error?: string }} Exit
 *   what the command ended with (spawnSync's status, signal and error)
 * @typedef {{ label: string, passed: number, failed: number, skipped: number, flaky: string[], problems: string[] }} Outcome
 *   `failed` counts failed tests plus one for each problem; `flaky` names the tests that
 *   passed only on a retry (counted in `passed`)
 * @typedef {{ floor: number, ci: boolean }} Rules
 * @typedef {{ remove(path: string): void, read(path: string): string | null }} ResultFiles
 */

/** @param {unknown} v @returns {v is Record<string, any>} */
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @param {unknown} v */
const count = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** @param {string} text */
const firstLine = (text) =>
  text
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

/** @param {Exit} exit @returns {string | null} */
function exitProblem(exit) {
  if (exit.error) return `the command did not run: ${exit.error}`;
  if (exit.signal) return `the command was killed (${exit.signal})`;
  if (exit.status !== 0) return `the command exited with status ${exit.status}`;
  return null;
}

/**
 * A step without tests of its own (lint, type check, builds): its exit status decides.
 * @param {string} label @param {Exit} exit @returns {Outcome}
 */
export function commandOutcome(label, exit) {
  const problem = exitProblem(exit);
  return { label, passed: problem ? 0 : 1, failed: problem ? 1 : 0, skipped: 0, flaky: [], problems: problem ? [problem] : [] };
}

/**
 * The rules every test step shares, applied after the runner's own counts.
 * @param {Outcome} o @param {Exit} exit @param {Rules} rules @param {boolean} read  whether a results file was read
 * @returns {Outcome}
 */
function judged(o, exit, rules, read) {
  const problems = [...o.problems];
  const ran = o.passed + (o.failed - o.problems.length);
  if (read && ran < rules.floor) problems.push(`ran ${ran} tests, fewer than the floor of ${rules.floor} (scripts/lib/test-run.mjs TEST_FLOORS)`);
  if (rules.ci && o.skipped > 0) problems.push(`${o.skipped} skipped under CI, where every test must run`);
  // A non-zero exit with nothing else to show for it is a failure of its own (an unhandled
  // rejection, a crash after the tests, a reporter that could not write).
  const exitP = exitProblem(exit);
  if (exitP && o.failed === 0 && problems.length === 0) problems.push(exitP);
  else if (exitP && (exit.signal || exit.error)) problems.push(exitP);
  const added = problems.length - o.problems.length;
  return { ...o, failed: o.failed + added, problems };
}

/**
 * A vitest run, from its JSON reporter's file (null: none was written).
 * @param {Exit} exit @param {string | null} text @param {Rules} rules @returns {Outcome}
 */
export function vitestOutcome(exit, text, rules) {
  const o = { label: 'unit', passed: 0, failed: 0, skipped: 0, flaky: /** @type {string[]} */ ([]), problems: /** @type {string[]} */ ([]) };
  const r = parseResults(text, o.problems);
  if (r) {
    o.passed = count(r.numPassedTests);
    o.failed = count(r.numFailedTests);
    o.skipped = count(r.numPendingTests) + count(r.numTodoTests);
    // A file that does not load, or whose hook throws, is failed with a message while none of
    // its tests failed.
    for (const f of Array.isArray(r.testResults) ? r.testResults : []) {
      if (!isRecord(f) || f.status !== 'failed') continue;
      const tests = Array.isArray(f.assertionResults) ? f.assertionResults : [];
      if (tests.some((a) => isRecord(a) && a.status === 'failed')) continue;
      const name = typeof f.name === 'string' ? f.name.replace(/^.*?(?=test[\\/])/, '') : '(a file)';
      o.problems.push(`${name}: ${firstLine(typeof f.message === 'string' && f.message ? f.message : 'failed outside its tests')}`);
    }
    // Vitest's verdict covers what it reports nowhere else (an unhandled error or rejection).
    if (r.success === false && o.failed === 0 && o.problems.length === 0) o.problems.push('vitest reports the run as failed (an unhandled error or rejection: see its output above)');
  }
  o.failed += o.problems.length;
  return judged(o, exit, rules, r !== null);
}

/**
 * A Playwright run, from its JSON reporter's file (null: none was written).
 * @param {Exit} exit @param {string | null} text @param {Rules} rules @returns {Outcome}
 */
export function playwrightOutcome(exit, text, rules) {
  const o = { label: 'e2e', passed: 0, failed: 0, skipped: 0, flaky: /** @type {string[]} */ ([]), problems: /** @type {string[]} */ ([]) };
  const r = parseResults(text, o.problems);
  if (r) {
    const s = isRecord(r.stats) ? r.stats : {};
    o.flaky = flakyTitles(r.suites);
    o.passed = count(s.expected) + count(s.flaky);
    o.failed = count(s.unexpected);
    o.skipped = count(s.skipped);
    if (count(s.interrupted) > 0) o.problems.push(`${count(s.interrupted)} interrupted`);
    // Errors outside any test: a spec that does not load, a global setup or teardown that throws.
    for (const e of Array.isArray(r.errors) ? r.errors : []) o.problems.push(firstLine(isRecord(e) && typeof e.message === 'string' ? e.message : String(e)));
  }
  o.failed += o.problems.length;
  return judged(o, exit, rules, r !== null);
}

/** @param {string | null} text @param {string[]} problems @returns {Record<string, any> | null} */
function parseResults(text, problems) {
  if (text === null) {
    problems.push('the runner wrote no results file');
    return null;
  }
  try {
    const r = JSON.parse(text);
    if (isRecord(r)) return r;
  } catch {
    // reported below
  }
  problems.push('the results file is not a JSON object');
  return null;
}

/** Titles of the tests Playwright marks flaky (failed, then passed on a retry). @param {unknown} suites */
function flakyTitles(suites, path = /** @type {string[]} */ ([])) {
  /** @type {string[]} */
  const out = [];
  for (const suite of Array.isArray(suites) ? suites : []) {
    if (!isRecord(suite)) continue;
    const here = suite.title ? [...path, String(suite.title)] : path;
    for (const spec of Array.isArray(suite.specs) ? suite.specs : []) {
      if (!isRecord(spec)) continue;
      const tests = Array.isArray(spec.tests) ? spec.tests : [];
      if (tests.some((t) => isRecord(t) && t.status === 'flaky')) out.push([...here, String(spec.title)].join(' › '));
    }
    out.push(...flakyTitles(suite.suites, here));
  }
  return out;
}

/**
 * Runs one test step: removes its results file, runs the command, reads what it wrote.
 * @param {'vitest' | 'playwright'} runner
 * @param {{ resultsFile: string, exec: () => Exit, files: ResultFiles, rules: Rules }} step
 * @returns {Outcome}
 */
export function runTestStep(runner, { resultsFile, exec, files, rules }) {
  files.remove(resultsFile);
  const exit = exec();
  const text = files.read(resultsFile);
  return runner === 'vitest' ? vitestOutcome(exit, text, rules) : playwrightOutcome(exit, text, rules);
}

/**
 * The step's own line, `label: N passed, N failed, N skipped`, and one line per problem.
 * @param {Outcome} o @returns {string[]}
 */
export function stepLines(o) {
  return [`${o.label}: ${o.passed} passed, ${o.failed} failed, ${o.skipped} skipped`, ...o.problems.map((p) => `  problem: ${p}`), ...o.flaky.map((t) => `  flaky (passed on a retry): ${t}`)];
}

/**
 * The closing lines: the flaky count (tests that passed only on a retry), then the line CI reads,
 * exactly `N passed, N failed, N skipped` on its own (a step without tests counts as one).
 * @param {Outcome[]} outcomes
 * @returns {{ lines: string[], ok: boolean }}
 */
export function closingLines(outcomes) {
  const sum = (/** @type {(o: Outcome) => number} */ f) => outcomes.reduce((n, o) => n + f(o), 0);
  const failed = sum((o) => o.failed);
  const flaky = sum((o) => o.flaky.length);
  return {
    lines: [`flaky: ${flaky} passed only on a retry`, `${sum((o) => o.passed)} passed, ${failed} failed, ${sum((o) => o.skipped)} skipped`],
    ok: failed === 0 && outcomes.length > 0,
  };
}
