// The hostile-publisher suite under node: every case of test/hostile/catalogue.ts is played
// through the engine against a local server, its observed outcome compared with the expected
// one, and the invariants checked. Writes test-results/hostile-node.json only: the test run
// leaves the tracked tree alone, and `npm run docs` turns the results into docs/reliability.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CASES } from '../../hostile/catalogue';
import { runCase, type CaseResult } from '../../hostile/node/run-case';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const RESULTS = resolve(ROOT, 'test-results/hostile-node.json');

/** `HOSTILE_ONLY=id1,id2` plays a subset while working on cases; the results file is then not written. */
const only = (process.env['HOSTILE_ONLY'] ?? '').split(',').filter((s) => s !== '');
const cases = only.length > 0 ? ALL_CASES.filter((c) => only.includes(c.id)) : [...ALL_CASES];
const slow = cases.filter((c) => c.slowMs !== undefined);
const fast = cases.filter((c) => c.slowMs === undefined);

const results = new Map<string, CaseResult>();
const slowRuns = new Map<string, Promise<CaseResult>>();

function check(r: CaseResult): void {
  results.set(r.id, r);
  expect.soft(r.problems, `${r.id}: invariants`).toEqual([]);
  expect(r.observed, `${r.id}: ${r.title}`).toBe(r.expected);
}

describe('hostile publishers (node engine)', () => {
  beforeAll(() => {
    // Cases that wait on real timeouts start at once and run beside the others.
    for (const c of slow) slowRuns.set(c.id, runCase(c));
  });

  afterAll(() => {
    if (only.length > 0) return;
    const ordered = ALL_CASES.map((c) => results.get(c.id)).filter((r): r is CaseResult => r !== undefined);
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, JSON.stringify({ runner: 'node', generatedAt: new Date().toISOString(), cases: ordered }, null, 2) + '\n');
  });

  for (const c of fast) {
    it(`${c.category}: ${c.id}`, async () => {
      check(await runCase(c));
    });
  }

  for (const c of slow) {
    it(
      `${c.category}: ${c.id} (real time)`,
      async () => {
        const run = slowRuns.get(c.id);
        if (!run) throw new Error(`${c.id} was not started`);
        check(await run);
      },
      (c.slowMs ?? 0) + 10_000,
    );
  }
});
