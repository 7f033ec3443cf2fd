// How `npm test` judges its steps (scripts/lib/test-run.mjs), fed runs shaped like what vitest 4 and
// Playwright 1.65 write (their JSON reporters, captured from real runs): a crashing run, an
// erroring run and an empty run must each fail, a clean run passes, and the closing line keeps
// the shape CI reads.
import { describe, expect, it } from 'vitest';
import { closingLines, commandOutcome, playwrightOutcome, runTestStep, stepLines, TEST_FLOORS, vitestOutcome, type Exit, type ResultFiles } from '../../../scripts/lib/test-run.mjs';

const OK: Exit = { status: 0 };
const EXIT_1: Exit = { status: 1 };
const LOCAL = { floor: 2, ci: false };

function vitestJson(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    numTotalTests: 3,
    numPassedTests: 3,
    numFailedTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    success: true,
    testResults: [{ name: '/repo/test/unit/a.test.ts', status: 'passed', message: '', assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'passed' }] }],
    ...over,
  });
}

function playwrightJson(stats: Record<string, number> = {}, errors: unknown[] = [], suites: unknown[] = []): string {
  return JSON.stringify({ stats: { expected: 3, skipped: 0, unexpected: 0, flaky: 0, ...stats }, errors, suites });
}

describe('vitest runs', () => {
  it('a clean run passes and is counted', () => {
    const o = vitestOutcome(OK, vitestJson(), LOCAL);
    expect(o).toMatchObject({ passed: 3, failed: 0, skipped: 0, problems: [] });
  });

  it('a crashing run fails: afterAll throws (the file is failed, every test passed, exit 1)', () => {
    const text = vitestJson({
      success: false,
      testResults: [{ name: '/repo/test/unit/a.test.ts', status: 'failed', message: 'afterAll boom', assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'passed' }] }],
    });
    const o = vitestOutcome(EXIT_1, text, LOCAL);
    expect(o.failed).toBeGreaterThan(0);
    expect(o.problems).toEqual(['test/unit/a.test.ts: afterAll boom']);
  });

  it('an erroring run fails: an unhandled rejection (every file passed, success false, exit 1)', () => {
    const o = vitestOutcome(EXIT_1, vitestJson({ success: false }), LOCAL);
    expect(o.failed).toBe(1);
    expect(o.problems[0]).toMatch(/unhandled/);
  });

  it('a non-zero exit fails even when the file says all is well', () => {
    const o = vitestOutcome(EXIT_1, vitestJson(), LOCAL);
    expect(o.failed).toBe(1);
    expect(o.problems).toEqual(['the command exited with status 1']);
  });

  it('a file that does not load fails', () => {
    const text = vitestJson({
      numPassedTests: 3,
      success: false,
      testResults: [
        { name: '/repo/test/unit/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'passed' }] },
        { name: '/repo/test/unit/b.test.ts', status: 'failed', message: "Cannot find module './gone' imported from /repo/test/unit/b.test.ts", assertionResults: [] },
      ],
    });
    const o = vitestOutcome(EXIT_1, text, LOCAL);
    expect(o.failed).toBe(1);
    expect(o.problems[0]).toMatch(/^test\/unit\/b\.test\.ts: Cannot find module/);
  });

  it('an empty run fails: no results file, or one with fewer tests than the floor', () => {
    expect(vitestOutcome(OK, null, LOCAL).failed).toBeGreaterThan(0);
    expect(vitestOutcome(OK, null, LOCAL).problems).toEqual(['the runner wrote no results file']);
    const none = vitestOutcome(OK, vitestJson({ numTotalTests: 0, numPassedTests: 0, testResults: [] }), LOCAL);
    expect(none.failed).toBe(1);
    expect(none.problems[0]).toMatch(/ran 0 tests, fewer than the floor of 2/);
    expect(vitestOutcome(OK, '{"numPassedTests": 3', LOCAL).problems).toEqual(['the results file is not a JSON object']);
  });

  it('failing tests are counted as failures, without an extra one for the exit status they explain', () => {
    const o = vitestOutcome(
      EXIT_1,
      vitestJson({ numPassedTests: 2, numFailedTests: 1, success: false, testResults: [{ name: 'x', status: 'failed', assertionResults: [{ status: 'failed' }] }] }),
      LOCAL,
    );
    expect(o).toMatchObject({ passed: 2, failed: 1, problems: [] });
  });

  it('skipped and todo tests are counted; under CI they fail the step', () => {
    const text = vitestJson({ numPassedTests: 3, numPendingTests: 1, numTodoTests: 1 });
    expect(vitestOutcome(OK, text, LOCAL)).toMatchObject({ skipped: 2, failed: 0 });
    const ci = vitestOutcome(OK, text, { floor: 2, ci: true });
    expect(ci.failed).toBe(1);
    expect(ci.problems).toEqual(['2 skipped under CI, where every test must run']);
  });

  it('a killed runner fails, whatever it wrote', () => {
    const o = vitestOutcome({ status: null, signal: 'SIGKILL' }, vitestJson(), LOCAL);
    expect(o.problems).toEqual(['the command was killed (SIGKILL)']);
  });
});

describe('Playwright runs', () => {
  it('a clean run passes; flaky tests count as passed and are named', () => {
    const suites = [
      {
        title: 'flows.spec.ts',
        specs: [
          { title: 'copies', tests: [{ status: 'flaky' }] },
          { title: 'inserts', tests: [{ status: 'expected' }] },
        ],
        suites: [],
      },
    ];
    const o = playwrightOutcome(OK, playwrightJson({ expected: 2, flaky: 1, skipped: 1 }, [], suites), LOCAL);
    expect(o).toMatchObject({ passed: 3, failed: 0, skipped: 1, flaky: ['flows.spec.ts › copies'], problems: [] });
  });

  it('an erroring run fails: a spec that does not load (zero stats, errors set, exit 1)', () => {
    const o = playwrightOutcome(EXIT_1, playwrightJson({ expected: 0 }, [{ message: "Error: Cannot find module '/repo/test/e2e/gone.ts'" }]), LOCAL);
    expect(o.failed).toBeGreaterThan(0);
    expect(o.problems).toContain("Error: Cannot find module '/repo/test/e2e/gone.ts'");
  });

  it('a crashing run fails: the global setup throws', () => {
    const o = playwrightOutcome(EXIT_1, playwrightJson({ expected: 0 }, [{ message: 'Error: setup boom', stack: 'Error: setup boom\n    at default (setup.ts:1:1)' }]), LOCAL);
    expect(o.problems[0]).toBe('Error: setup boom');
    expect(o.failed).toBeGreaterThan(0);
  });

  it('errors beside passing tests still fail (a teardown that throws)', () => {
    const o = playwrightOutcome(EXIT_1, playwrightJson({ expected: 3 }, [{ message: 'Error: teardown boom' }]), LOCAL);
    expect(o).toMatchObject({ passed: 3, failed: 1, problems: ['Error: teardown boom'] });
  });

  it('an empty run fails: nothing written, or fewer tests than the floor', () => {
    expect(playwrightOutcome(OK, null, LOCAL).failed).toBeGreaterThan(0);
    const none = playwrightOutcome(OK, playwrightJson({ expected: 0 }), LOCAL);
    expect(none.failed).toBe(1);
    expect(none.problems[0]).toMatch(/fewer than the floor/);
  });

  it('interrupted tests and skips under CI fail', () => {
    expect(playwrightOutcome(EXIT_1, playwrightJson({ interrupted: 1 }), LOCAL).problems).toEqual(['1 interrupted']);
    expect(playwrightOutcome(OK, playwrightJson({ skipped: 1 }), { floor: 2, ci: true }).failed).toBe(1);
  });
});

describe('one step, its results file and the closing line', () => {
  /** An in-memory results folder; `stale` is what the previous run left. */
  function folder(stale: Record<string, string>): ResultFiles & { files: Map<string, string> } {
    const files = new Map(Object.entries(stale));
    return { files, remove: (p) => void files.delete(p), read: (p) => files.get(p) ?? null };
  }

  it("the previous run's results are removed first: a run that writes nothing fails", () => {
    const results = folder({ 'unit.json': vitestJson({ numPassedTests: 2356 }), 'e2e.json': playwrightJson({ expected: 101 }) });
    const unit = runTestStep('vitest', { resultsFile: 'unit.json', exec: () => OK, files: results, rules: LOCAL });
    const e2e = runTestStep('playwright', { resultsFile: 'e2e.json', exec: () => OK, files: results, rules: LOCAL });
    expect(unit.problems).toEqual(['the runner wrote no results file']);
    expect(e2e.problems).toEqual(['the runner wrote no results file']);
    expect(closingLines([unit, e2e]).ok).toBe(false);
  });

  it('reads what the run wrote', () => {
    const results = folder({});
    const o = runTestStep('playwright', {
      resultsFile: 'e2e.json',
      exec: () => {
        results.files.set('e2e.json', playwrightJson({ expected: 4 }));
        return OK;
      },
      files: results,
      rules: LOCAL,
    });
    expect(o).toMatchObject({ passed: 4, failed: 0 });
  });

  it('a command step fails on a non-zero exit, a signal or a command that did not start', () => {
    expect(commandOutcome('lint', OK)).toMatchObject({ passed: 1, failed: 0 });
    expect(commandOutcome('lint', EXIT_1)).toMatchObject({ passed: 0, failed: 1 });
    expect(commandOutcome('lint', { status: null, signal: 'SIGTERM' }).failed).toBe(1);
    expect(commandOutcome('lint', { status: null, error: 'spawn npx ENOENT' }).failed).toBe(1);
  });

  it('the last line is exactly `N passed, N failed, N skipped`; the line above counts the flaky tests', () => {
    const e2e = playwrightOutcome(OK, playwrightJson({ expected: 2, flaky: 1, skipped: 1 }, [], [{ title: 'a.spec.ts', specs: [{ title: 't', tests: [{ status: 'flaky' }] }] }]), LOCAL);
    const { lines, ok } = closingLines([commandOutcome('lint', OK), vitestOutcome(OK, vitestJson(), LOCAL), e2e]);
    expect(ok).toBe(true);
    expect(lines).toEqual(['flaky: 1 passed only on a retry', '7 passed, 0 failed, 1 skipped']);
    // What CI recognises: the plain line alone, `, N skipped` after it, one word with a colon before.
    const ciLine = /^(?:\w+: )?\d+ passed, \d+ failed(?:, \d+ skipped)?$/;
    expect(lines.at(-1)).toMatch(ciLine);
    expect(lines[0]).not.toMatch(/\d+ passed, \d+ failed/);
    for (const line of stepLines(e2e)) expect(line.startsWith('e2e: ') ? line : 'e2e: 0 passed, 0 failed').toMatch(ciLine);
  });

  it('a failure anywhere makes the run fail', () => {
    const failed = vitestOutcome(EXIT_1, vitestJson({ success: false }), LOCAL);
    const { lines, ok } = closingLines([commandOutcome('lint', OK), failed]);
    expect(ok).toBe(false);
    expect(lines.at(-1)).toBe('4 passed, 1 failed, 0 skipped');
    expect(closingLines([]).ok).toBe(false);
  });

  it('the floors are set: an empty run cannot pass for a real one', () => {
    expect(TEST_FLOORS.unit).toBeGreaterThan(2000);
    expect(TEST_FLOORS.e2e).toBeGreaterThan(90);
  });
});
