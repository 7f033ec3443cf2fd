// The CI sample of the fuzz targets (test/fuzz): every property with a fixed seed and a small
// number of runs, so that the normal unit run replays the same inputs every time. `npm run fuzz`
// runs the same properties a million times each with a fresh seed.
import { describe, expect, it } from 'vitest';
import { FUZZ_TARGETS } from '../../fuzz/targets';
import { runTarget } from '../../fuzz/run';

const RUNS = Number(process.env['FUZZ_SAMPLE_RUNS'] ?? 300);
const SEED = 20261201;

describe('fuzz sample (fixed seed)', () => {
  it('targets have distinct kebab-case ids', () => {
    const ids = FUZZ_TARGETS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  FUZZ_TARGETS.forEach((target, i) => {
    it(`${target.id}: ${RUNS} inputs keep every invariant`, async () => {
      const r = await runTarget(target, RUNS, SEED + i);
      expect(r.failed ? `${r.error}\ncounterexample: ${r.counterexample}\nseed ${r.seed}, path ${r.path}` : null).toBeNull();
      expect(r.runs).toBe(RUNS);
    }, 60_000);
  });
});
