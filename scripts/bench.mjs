// @ts-check
// npm run bench: builds the extension (with hidden source maps, in its own folder), runs the
// bench specs under test/bench with their own Playwright config (one worker: timings must not
// compete), collects test-results/bench/*.json and writes docs/benchmarks.md.
//
//   npm run bench                 every bench, fresh results
//   npm run bench -- pageload ui  only those spec files; the other sections keep their last results
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { parseReport, renderReport, sectionNumber } from './bench/report.mjs';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'test-results/bench');
const docPath = join(root, 'docs/benchmarks.md');
const filters = process.argv.slice(2);
const started = Date.now();
const startedAt = new Date(started).toISOString().replace(/\.\d+Z$/, 'Z');
const load0 = loadavg();

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`bench: no Chromium at ${chromium}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(2);
}

/** @param {string} cmd @param {string[]} args */
function tryOutput(cmd, args) {
  try {
    return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

// The commit the measured build is made from: taken before the build, as commits made while the
// bench runs do not change what it measures.
const builtFrom = tryOutput('git', ['rev-parse', '--short', 'HEAD']);
const builtDirty = tryOutput('git', ['status', '--porcelain', '--untracked-files=no']) !== '' ? ' (with uncommitted changes)' : '';
console.log('bench: building the extension (test/bench/wxt.bench.config.ts)');
const build = spawnSync('npx', ['wxt', 'build', '-c', 'test/bench/wxt.bench.config.ts'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('bench: the build failed');
  process.exit(1);
}

if (filters.length === 0) rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

console.log('bench: running the bench specs');
const run = spawnSync('npx', ['playwright', 'test', '-c', 'test/bench/playwright.bench.config.ts', ...filters], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_RESULTS_DIR: resultsDir },
});

/** @type {import('./bench/report.mjs').BenchSection[]} */
const sections = [];
for (const f of existsSync(resultsDir) ? readdirSync(resultsDir).filter((x) => x.endsWith('.json')) : []) {
  sections.push(JSON.parse(readFileSync(join(resultsDir, f), 'utf8')));
}
// A run of some specs keeps the other sections' last results: their JSON files from an earlier run
// here, or else the sections of the docs/benchmarks.md in the tree (a fresh checkout has no JSON).
if (filters.length > 0 && existsSync(docPath)) {
  const have = new Set(sections.map((s) => sectionNumber(s.title)));
  for (const kept of parseReport(readFileSync(docPath, 'utf8'))) if (!have.has(sectionNumber(kept.title))) sections.push(kept);
}
const expected = ['1-page-load', '2-requests-browser', '2-requests-node', '3-verdict', '4-engine', '5-crypto', '6-ui', '6b-library', '7a-storage', '7b-memory', '8-bundle'];
const missing = filters.length > 0 ? [] : expected.filter((id) => !sections.some((s) => s.id === id));

const load1 = loadavg();
const cpu = cpus();
const seconds = (Date.now() - started) / 1000;
const headAtEnd = tryOutput('git', ['rev-parse', '--short', 'HEAD']);
const moved = headAtEnd !== builtFrom ? ` (built from it; HEAD was ${headAtEnd} when the run ended)` : '';
/** @type {[string, string][]} */
const machine = [
  ['CPU', `${cpu.length} × ${cpu[0]?.model ?? 'unknown'}`],
  ['memory', `${Math.round(totalmem() / 1024 ** 3)} GiB`],
  ['OS', `${type()} ${release()}`],
  ['node', process.version],
  ['browser', tryOutput(chromium, ['--version'])],
  ['load average (1 min) at start / end', `${load0[0]?.toFixed(2)} / ${load1[0]?.toFixed(2)} (a shared machine: other work runs beside the bench)`],
  ['commit', `${builtFrom}${builtDirty}${moved}`],
];

mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(
  docPath,
  renderReport(sections, {
    command: `npm run bench${filters.length ? ' -- ' + filters.join(' ') : ''}`,
    startedAt,
    seconds,
    machine,
    failed: run.status === 0 ? [] : missing.length ? missing : ['(see the Playwright output)'],
  }) + '\n',
);

const targets = sections.flatMap((s) => s.targets);
const met = targets.filter((t) => t.met === true).length;
const missed = targets.filter((t) => t.met === false).length;
console.log(`bench: wrote docs/benchmarks.md in ${Math.round(seconds)} s — targets: ${met} met, ${missed} missed`);
if (missing.length > 0 && filters.length === 0) console.log(`bench: no results for ${missing.join(', ')}`);
process.exit(run.status === 0 ? 0 : 1);
