// Command line for one fuzz target, bundled and run by scripts/fuzz.mjs:
//   cli --list                                   the target ids, one per line
//   cli --target ID --runs N --seed S --out FILE runs it and writes its FuzzResult as JSON
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FUZZ_TARGETS } from './targets';
import { runTarget } from './run';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<number> {
  if (process.argv.includes('--list')) {
    for (const t of FUZZ_TARGETS) console.log(t.id);
    return 0;
  }
  const id = arg('--target');
  const target = FUZZ_TARGETS.find((t) => t.id === id);
  const runs = Number(arg('--runs'));
  const seed = Number(arg('--seed'));
  const out = arg('--out');
  if (!target || !Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed) || !out) {
    console.error(`usage: --target (${FUZZ_TARGETS.map((t) => t.id).join('|')}) --runs N --seed S --out FILE`);
    return 2;
  }
  const failedPreflight = target.preflight?.() ?? null;
  const result = await runTarget(target, runs, seed);
  if (failedPreflight !== null) Object.assign(result, { failed: true, error: `preflight: ${failedPreflight}` });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  const rate = Math.round(result.runs / Math.max(result.durationMs / 1000, 0.001));
  console.log(`${target.id}: ${result.runs} inputs, ${result.failed ? 'FAILED' : 'no failure'}, ${(result.durationMs / 1000).toFixed(1)} s (${rate}/s)`);
  if (result.failed) console.log(`  ${result.error}\n  counterexample: ${result.counterexample}`);
  return result.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
