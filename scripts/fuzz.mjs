// `npm run fuzz`: every fuzz target of test/fuzz/ (the properties the unit run samples with a
// fixed seed) run FUZZ_RUNS times (default 1,000,000) from a fresh seed. Writes each target's
// result to test-results/fuzz/<id>.json, all of them to test-results/fuzz.json and, for a full
// run (at least 1,000,000 inputs per target), the fuzzing section of docs/reliability.md.
//
// Environment: FUZZ_RUNS (inputs per target), FUZZ_SEED (base seed; target i uses seed + i),
// FUZZ_TARGETS (comma-separated ids; default all), FUZZ_JOBS (targets run at once; default 1),
// FUZZ_WRITE_DOC=1 writes the document after a smaller run too. A full run of some targets only
// (FUZZ_TARGETS) merges their rows into the document's fuzzing section.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test-results/fuzz');
const bundle = join(outDir, 'cli.mjs');

/** Inputs per target of a full run: the count docs/reliability.md promises. */
const FULL_FUZZ_RUNS = 1_000_000;
const runs = Number(process.env.FUZZ_RUNS ?? FULL_FUZZ_RUNS);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const jobs = Math.max(1, Number(process.env.FUZZ_JOBS ?? 1));
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error('FUZZ_RUNS must be a positive integer and FUZZ_SEED an integer');
  process.exit(2);
}

mkdirSync(outDir, { recursive: true });
// The targets are TypeScript importing lib/: bundle them once; packages stay in node_modules.
await build({ entryPoints: [join(root, 'test/fuzz/cli.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', logLevel: 'warning' });

/** @param {string[]} args @param {string} [script] @returns {Promise<{ code: number, stdout: string }>} */
function node(args, script = bundle) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => done({ code: code ?? 1, stdout }));
  });
}

const all = (await node(['--list'])).stdout.split('\n').filter((l) => l !== '');
const wanted = (process.env.FUZZ_TARGETS ?? '').split(',').filter((s) => s !== '');
const unknown = wanted.filter((id) => !all.includes(id));
if (unknown.length > 0) {
  console.error(`unknown fuzz target(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}
const ids = wanted.length > 0 ? all.filter((id) => wanted.includes(id)) : all;

console.log(`fuzz: ${ids.length} targets × ${runs} inputs, seed ${seed}, ${jobs} at a time`);
const started = Date.now();
const queue = ids.map((id) => ({ id, seed: seed + all.indexOf(id), file: join(outDir, `${id}.json`) }));
let broken = 0;
async function worker() {
  for (let job = queue.shift(); job; job = queue.shift()) {
    const r = await node(['--target', job.id, '--runs', String(runs), '--seed', String(job.seed), '--out', job.file]);
    if (r.code > 1) broken += 1;
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, ids.length) }, worker));
const durationMs = Date.now() - started;

/** @type {{ id: string, runs: number, failed: boolean, error: string | null, counterexample: string | null }[]} */
const targets = [];
for (const id of ids) {
  try {
    targets.push(JSON.parse(readFileSync(join(outDir, `${id}.json`), 'utf8')));
  } catch {
    broken += 1;
    console.error(`${id}: no result (the runner stopped)`);
  }
}
const results = { runner: 'fuzz', generatedAt: new Date().toISOString(), node: process.version, seed, runsPerTarget: runs, durationMs, complete: ids.length === all.length && broken === 0, targets };
writeFileSync(join(root, 'test-results/fuzz.json'), JSON.stringify(results, null, 2) + '\n');

const failed = targets.filter((t) => t.failed);
const total = targets.reduce((n, t) => n + t.runs, 0);
console.log(`\nfuzz: ${total} inputs in ${Math.round(durationMs / 1000)} s; ${failed.length} target(s) failed${broken > 0 ? `, ${broken} did not finish` : ''}`);
for (const t of failed) console.log(`  ${t.id}: ${t.error}\n    counterexample: ${t.counterexample}`);

if (results.complete && (runs >= FULL_FUZZ_RUNS || process.env.FUZZ_WRITE_DOC === '1')) {
  // A separate process, so that the document is written by the report code as it is now.
  const doc = await node(['--fuzz-section', join(root, 'test-results/fuzz.json')], join(root, 'scripts/lib/reliability-report.mjs'));
  if (doc.code !== 0) broken += 1;
} else if (!results.complete && broken === 0 && failed.length === 0 && runs >= FULL_FUZZ_RUNS) {
  const doc = await node(['--fuzz-section', join(root, 'test-results/fuzz.json'), '--merge', all.join(',')], join(root, 'scripts/lib/reliability-report.mjs'));
  if (doc.code !== 0) broken += 1;
} else {
  console.log(`fuzz: docs/reliability.md left as it is (${results.complete ? `under ${FULL_FUZZ_RUNS} inputs per target` : 'not every target ran'})`);
}
process.exit(failed.length > 0 || broken > 0 ? 1 : 0);
