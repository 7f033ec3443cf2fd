// @ts-check
// Writes docs/reliability.md. Tests never write it: they leave their results under test-results/
// and this explicit command turns them into the document (`npm run docs`):
//   - test-results/hostile-node.json (the node runner, test/unit/hostile): every case gets a row;
//   - test-results/hostile-browser.json (the Chromium runner, test/e2e/hostile.spec.ts), when
//     present: the chromium column, "not in browser subset" or "pending" otherwise;
//   - test-results/faults-browser.json (test/e2e/faults.spec.ts), when present.
// The review section (what lib/review/ finds on every real skill of the corpus,
// scripts/lib/review-section.mjs) is computed afresh each time: the corpus review is bundled with
// esbuild and run. The fuzzing section is written by `npm run fuzz` (scripts/fuzz.mjs) and kept as it is when the
// rest is regenerated. Apart from that section's run date, nothing in the document depends on
// when it was written, so regenerating from the same results gives the same bytes.
//
// Usage: node scripts/lib/reliability-report.mjs [--node FILE] [--browser FILE] [--faults FILE] [--out FILE]
//        node scripts/lib/reliability-report.mjs --fuzz-section test-results/fuzz.json [--out FILE]
//        node scripts/lib/reliability-report.mjs --review-section [--out FILE]   (only the review section)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cell, sectionBetween } from './doc-sections.mjs';
import { extractReviewSection, renderReviewSection, REVIEW_BEGIN, REVIEW_END } from './review-section.mjs';

/**
 * @typedef {{ id: string, category: string, title: string, browserOnly: boolean,
 *   browser: { include: boolean, assert: string | null }, expected: string, observed: string,
 *   pass: boolean, problems: string[], ms: number }} NodeCase
 * @typedef {{ runner: 'node', generatedAt: string, cases: NodeCase[] }} NodeResults
 * @typedef {{ id: string, observed: string, pass: boolean, problems?: string[] }} BrowserCase
 * @typedef {{ runner: 'chromium', generatedAt: string, cases: BrowserCase[] }} BrowserResults
 * @typedef {{ title: string, pass: boolean, observed: string, ms: number }} FaultCase
 * @typedef {{ runner: 'chromium-faults', generatedAt: string, cases: FaultCase[] }} FaultResults
 * @typedef {{ id: string, entry: string, inputs: string, seed: number, runs: number, skipped: number,
 *   failed: boolean, durationMs: number, counterexample: string | null, error: string | null,
 *   path: string | null, shrinks: number, outcomes: Record<string, number> }} FuzzTargetResult
 * @typedef {{ runner: 'fuzz', generatedAt: string, node: string, seed: number, runsPerTarget: number,
 *   durationMs: number, jobs?: number, complete: boolean, targets: FuzzTargetResult[] }} FuzzResults
 */

export const FUZZ_BEGIN = '<!-- fuzz:begin (written by npm run fuzz) -->';
export const FUZZ_END = '<!-- fuzz:end -->';
/** Inputs per target of a full fuzz run, as the document promises. */
export const FULL_FUZZ_RUNS = 1_000_000;
/** A hand-written section (the desktop program's cases, which no hostile site plays) that npm run docs keeps as it is. */
export const DESKTOP_BEGIN = '<!-- desktop:begin (hand-written; kept by npm run docs) -->';
export const DESKTOP_END = '<!-- desktop:end -->';
const FUZZ_PENDING = [FUZZ_BEGIN, '## Fuzzing the parsers and the unpacker', '', 'Pending: run `npm run fuzz`.', FUZZ_END].join('\n');

const CATEGORY_ORDER = ['size-time', 'archive', 'redirect-url', 'content', 'crypto-trust', 'rendering', 'messaging', 'faults'];

/**
 * @param {NodeCase} c
 * @param {Map<string, BrowserCase>} browser
 * @returns {{ text: string, state: 'pass' | 'fail' | 'pending' | 'n/a' }}
 */
function chromiumColumn(c, browser) {
  const b = browser.get(c.id);
  if (!c.browser.include) return { text: 'not in browser subset', state: 'n/a' };
  if (!b) return { text: 'pending', state: 'pending' };
  const problems = b.problems && b.problems.length > 0 ? ` (${b.problems.join('; ')})` : '';
  return { text: `${b.pass ? '✅' : '❌'} ${b.observed}${problems}`, state: b.pass ? 'pass' : 'fail' };
}

/** @param {NodeCase} c */
function nodeColumn(c) {
  if (c.browserOnly && c.observed === '') return { text: 'browser only', state: 'n/a' };
  const problems = c.problems.length > 0 ? ` — ${c.problems.join('; ')}` : '';
  return { text: `${c.pass ? '✅' : '❌'} ${c.observed}${problems}`, state: c.pass ? 'pass' : 'fail' };
}

/** @param {number} n */
function thousands(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** @param {number} ms */
function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The fuzzing section, markers included, from a `npm run fuzz` result file.
 * @param {FuzzResults} fuzz
 * @returns {string}
 */
export function renderFuzzSection(fuzz) {
  const lines = [FUZZ_BEGIN, '## Fuzzing the parsers and the unpacker', ''];
  const day = fuzz.generatedAt.slice(0, 10);
  const total = fuzz.targets.reduce((n, t) => n + t.runs, 0);
  lines.push(
    `Written by \`npm run fuzz\` on ${day} (node ${fuzz.node}): every target of \`test/fuzz/\` ran ${thousands(fuzz.runsPerTarget)} generated inputs`,
    `(fast-check, seed ${fuzz.seed}; target *i* in the order below uses seed + *i*), ${thousands(total)} inputs in all, in ${duration(fuzz.durationMs)}.`,
    'The unit run replays a fixed-seed sample of every target (`test/unit/fuzz/sample.test.ts`).',
    '',
    'The inputs are structured but hostile (near-valid lines and documents, odd JSON values, real zip and tar.gz',
    'containers built entry by entry with hostile names and headers), now and then with bytes edited. Every input',
    'is checked for: nothing is thrown out of the parser; every outcome is a known status whose code',
    '`docs/report.md` documents; no cap is exceeded (frontmatter size, alias expansion, archive files, bytes and',
    'entries); no unpacked path leaves the skill root and no two collide after normalization and case folding; a',
    "resolved URL keeps the artifact URL rules; plus each target's own oracle (JSON.parse for the index shape,",
    'well-formed archives unpack intact, the merge does not depend on the input order, decoding matches UTF-8).',
    '',
    '| target | entry point | inputs | runs | failed | distinct outcomes | time |',
    '|---|---|---|---:|---:|---:|---:|',
  );
  for (const t of fuzz.targets) {
    lines.push(`| \`${t.id}\` | ${cell(t.entry)} | ${cell(t.inputs)} | ${thousands(t.runs)} | ${t.failed ? 1 : 0} | ${Object.keys(t.outcomes ?? {}).length} | ${duration(t.durationMs)} |`);
  }
  lines.push('');
  const failed = fuzz.targets.filter((t) => t.failed);
  lines.push('### Failures');
  lines.push('');
  if (failed.length === 0) lines.push('None.');
  for (const t of failed) {
    lines.push(`- \`${t.id}\` (seed ${t.seed}, path ${cell(t.path ?? '-')}): ${cell(t.error ?? '')}`);
    lines.push(`  - minimised input: ${cell(t.counterexample ?? '')}`);
  }
  lines.push('');
  lines.push('Inputs that broke an invariant in a fuzz run are kept, minimised, as tests in `test/unit/fuzz/regressions.test.ts`.');
  lines.push('');
  lines.push('### Outcomes seen');
  lines.push('');
  lines.push('How often each status, refusal code or diagnostic code came out (an input can produce several), to show how far');
  lines.push('the inputs reach into each parser:');
  lines.push('');
  for (const t of fuzz.targets) {
    const seen = Object.entries(t.outcomes ?? {}).map(([k, n]) => `${cell(k)} ${thousands(n)}`);
    lines.push(`- \`${t.id}\`: ${seen.length > 0 ? seen.join('; ') : 'none recorded'}.`);
  }
  lines.push(FUZZ_END);
  return lines.join('\n');
}

/**
 * The fuzzing section after a run of some targets only, each with at least FULL_FUZZ_RUNS inputs:
 * the rows and outcome lines of the targets that ran replace (or join) the old ones, in `order`
 * (the targets' ids as test/fuzz/targets.ts lists them), and a line says when they ran (replacing an
 * earlier such line about the same targets).
 * @param {string} old the existing section, markers included
 * @param {FuzzResults} fuzz
 * @param {string[]} order
 * @returns {string}
 */
export function mergeFuzzSection(old, fuzz, order) {
  const fresh = renderFuzzSection(fuzz).split('\n');
  const lines = old.split('\n');
  /** @param {string[]} from @param {string} prefix */
  const byId = (from, prefix) => new Map(from.filter((l) => l.startsWith(prefix)).map((l) => [l.slice(prefix.length).split('`')[0] ?? '', l]));
  const rows = new Map([...byId(lines, '| `'), ...byId(fresh, '| `')]);
  const seenLines = new Map([...byId(lines, '- `'), ...byId(fresh, '- `')]);
  const ran = fuzz.targets.map((t) => `\`${t.id}\``).join(', ');
  const note = `Since then ${ran} ran ${thousands(fuzz.runsPerTarget)} generated inputs each on ${fuzz.generatedAt.slice(0, 10)} (node ${fuzz.node}, seed ${fuzz.seed}), in ${duration(fuzz.durationMs)}.`;
  /** @type {string[]} */
  const out = [];
  let inTable = false;
  let inSeen = false;
  for (const line of lines) {
    if (line.startsWith('Since then ') && fuzz.targets.some((t) => line.includes(`\`${t.id}\``))) continue;
    if (line.startsWith('| `')) {
      if (!inTable) for (const id of order) if (rows.has(id)) out.push(/** @type {string} */ (rows.get(id)));
      inTable = true;
      continue;
    }
    if (line.startsWith('- `') && !line.includes('(seed ')) {
      if (!inSeen) for (const id of order) if (seenLines.has(id)) out.push(/** @type {string} */ (seenLines.get(id)));
      inSeen = true;
      continue;
    }
    if (line.startsWith('The unit run replays')) out.push(note);
    out.push(line);
  }
  return out.join('\n');
}

/**
 * The fuzzing section of an existing document (markers included), or null.
 * @param {string} md
 */
export function extractFuzzSection(md) {
  return sectionBetween(md, FUZZ_BEGIN, FUZZ_END);
}

/**
 * The hand-written desktop section of an existing document (markers included), or null.
 * @param {string} md
 */
export function extractDesktopSection(md) {
  return sectionBetween(md, DESKTOP_BEGIN, DESKTOP_END);
}

/**
 * Renders the whole document.
 * @param {{ node: NodeResults, browser?: BrowserResults | null, faults?: FaultResults | null, fuzzSection?: string | null, reviewSection?: string | null, desktopSection?: string | null }} input
 * @returns {string}
 */
export function renderReliability({ node, browser, faults, fuzzSection, reviewSection, desktopSection }) {
  const bmap = new Map((browser?.cases ?? []).map((c) => [c.id, c]));
  const cases = [...node.cases].sort((a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category));
  const categories = [...new Set([...CATEGORY_ORDER.filter((k) => cases.some((c) => c.category === k)), ...cases.map((c) => c.category)])];

  const lines = [];
  lines.push('# Reliability against hostile publishers');
  lines.push('');
  lines.push('Generated by `npm run docs` from the results the test runs leave under `test-results/` (node:');
  lines.push('`npx vitest run test/unit/hostile`; Chromium: `npx playwright test test/e2e/hostile.spec.ts` and');
  lines.push('`test/e2e/faults.spec.ts`); the fuzzing section by `npm run fuzz`. Do not edit by hand.');
  lines.push(`Chromium results: ${browser ? 'included' : 'none yet'}.`);
  lines.push('');
  lines.push('Every case is a named fixture played by a local server on 127.0.0.1 (`test/hostile/`). Besides its');
  lines.push('expected outcome, every case is checked for these invariants: the probe settles within its time');
  lines.push('budget and nothing is thrown; the report ends `done` or `error`, never `probing`; no refused skill is');
  lines.push('approved and no approval binds bytes other than the current ones; refused bytes are not stored as');
  lines.push('verified; a pin and an approval stored beforehand for an unrelated origin are intact; no trap URL');
  lines.push('(`/never/…`, which payloads point at) is requested; no request leaves the test network.');
  lines.push('');

  lines.push('## Count by category');
  lines.push('');
  lines.push('| category | cases | browser subset | browser only | node passed | node failed | chromium passed | chromium failed | chromium pending |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const total = { cases: 0, subset: 0, only: 0, np: 0, nf: 0, cp: 0, cf: 0, pend: 0 };
  for (const cat of categories) {
    const rows = cases.filter((c) => c.category === cat);
    const t = { cases: rows.length, subset: 0, only: 0, np: 0, nf: 0, cp: 0, cf: 0, pend: 0 };
    for (const c of rows) {
      if (c.browser.include) t.subset += 1;
      if (c.browserOnly) t.only += 1;
      const n = nodeColumn(c).state;
      if (n === 'pass') t.np += 1;
      if (n === 'fail') t.nf += 1;
      const b = chromiumColumn(c, bmap).state;
      if (b === 'pass') t.cp += 1;
      if (b === 'fail') t.cf += 1;
      if (b === 'pending') t.pend += 1;
    }
    for (const k of /** @type {(keyof typeof t)[]} */ (Object.keys(t))) total[k] += t[k];
    lines.push(`| ${cat} | ${t.cases} | ${t.subset} | ${t.only} | ${t.np} | ${t.nf} | ${t.cp} | ${t.cf} | ${t.pend} |`);
  }
  lines.push(`| **total** | **${total.cases}** | **${total.subset}** | **${total.only}** | **${total.np}** | **${total.nf}** | **${total.cp}** | **${total.cf}** | **${total.pend}** |`);
  lines.push('');

  const failures = cases.filter((c) => nodeColumn(c).state === 'fail' || chromiumColumn(c, bmap).state === 'fail');
  lines.push('## Failing cases');
  lines.push('');
  if (failures.length === 0) lines.push('None.');
  for (const c of failures) {
    const n = nodeColumn(c);
    const b = chromiumColumn(c, bmap);
    lines.push(`- \`${c.id}\`: expected ${cell(c.expected)}`);
    if (n.state === 'fail') lines.push(`  - node: ${cell(n.text)}`);
    if (b.state === 'fail') lines.push(`  - chromium: ${cell(b.text)}`);
  }
  lines.push('');

  for (const cat of categories) {
    lines.push(`## ${cat}`);
    lines.push('');
    lines.push('| case | what the publisher does | expected | node (observed) | chromium (observed) |');
    lines.push('|---|---|---|---|---|');
    for (const c of cases.filter((x) => x.category === cat)) {
      const assert = c.browser.include && c.browser.assert ? `<br>browser check: ${cell(c.browser.assert)}` : '';
      lines.push(`| \`${c.id}\` | ${cell(c.title)} | ${cell(c.expected)}${assert} | ${cell(nodeColumn(c).text)} | ${cell(chromiumColumn(c, bmap).text)} |`);
    }
    lines.push('');
  }
  lines.push('');
  lines.push('## Faults in Chromium');
  lines.push('');
  if (!faults) {
    lines.push('Pending: run `npx playwright test test/e2e/faults.spec.ts` (the end-to-end suite writes `test-results/faults-browser.json`).');
  } else {
    const passed = faults.cases.filter((c) => c.pass).length;
    lines.push(`The environment failing under the extension in real Chromium (\`test/e2e/faults.spec.ts\`): ${passed} passed, ${faults.cases.length - passed} failed.`);
    lines.push('Each title names the fault, then after the colon the expected outcome.');
    lines.push('');
    lines.push('| fault | expected | observed |');
    lines.push('|---|---|---|');
    for (const c of faults.cases) {
      const at = c.title.indexOf(': ');
      const fault = at > 0 ? c.title.slice(0, at) : c.title;
      const expected = at > 0 ? c.title.slice(at + 2) : '';
      lines.push(`| ${cell(fault)} | ${cell(expected)} | ${c.pass ? '✅' : '❌'} ${cell(c.observed)} |`);
    }
  }
  lines.push('');
  lines.push(reviewSection ?? [REVIEW_BEGIN, '## What the reviewer finds on real skills', '', 'Pending: run `npm run docs`.', REVIEW_END].join('\n'));
  lines.push('');
  if (desktopSection) lines.push(desktopSection, '');
  lines.push(fuzzSection ?? FUZZ_PENDING);
  return lines.join('\n');
}

/** @param {string} path */
function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * Reads the result files and writes the document, keeping the fuzzing section the document has.
 * @param {{ nodePath: string, browserPath?: string, outPath: string, faultsPath?: string, reviewSection?: string | null }} paths
 * @returns {string} the markdown written
 */
export function writeReliabilityReport({ nodePath, browserPath, outPath, faultsPath, reviewSection }) {
  /** @type {NodeResults} */
  const node = readJson(nodePath);
  /** @type {BrowserResults | null} */
  const browser = browserPath && existsSync(browserPath) ? readJson(browserPath) : null;
  const faultsFile = faultsPath ?? resolve(dirname(nodePath), 'faults-browser.json');
  /** @type {FaultResults | null} */
  const faults = existsSync(faultsFile) ? readJson(faultsFile) : null;
  const before = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  const fuzzSection = extractFuzzSection(before);
  const md = renderReliability({ node, browser, faults, fuzzSection, reviewSection: reviewSection ?? extractReviewSection(before), desktopSection: extractDesktopSection(before) });
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, md + '\n');
  return md;
}

/**
 * Replaces the fuzzing section of the document (or adds it at the end) from a fuzz result file;
 * with `order` (a run of some targets only), merges their rows into the section there is.
 * @param {string} outPath
 * @param {FuzzResults} fuzz
 * @param {string[] | null} [order]
 */
export function writeFuzzSection(outPath, fuzz, order = null) {
  const md = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  const old = extractFuzzSection(md);
  const section = order !== null && old !== null ? mergeFuzzSection(old, fuzz, order) : renderFuzzSection(fuzz);
  const next = old !== null ? md.replace(old, () => section) : `${md.replace(/\n*$/, '')}${md === '' ? '' : '\n\n'}${section}\n`;
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, next);
}

/**
 * The review section from the corpus as it is now: test/support/corpus-review-cli.ts bundled with
 * esbuild (packages stay in node_modules) and run.
 * @param {string} root
 * @returns {Promise<string>}
 */
export async function computeReviewSection(root) {
  const { build } = await import('esbuild');
  const bundle = resolve(root, 'test-results/review/corpus-review.mjs');
  await build({
    entryPoints: [resolve(root, 'test/support/corpus-review-cli.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    logLevel: 'warning',
  });
  const { rows, explained } = JSON.parse(execFileSync(process.execPath, [bundle], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  return renderReviewSection(rows, explained);
}

/**
 * Replaces the review section of the document (or adds it before the fuzzing section).
 * @param {string} outPath
 * @param {string} section
 */
export function writeReviewSection(outPath, section) {
  const md = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  const old = extractReviewSection(md);
  const fuzzAt = md.indexOf(FUZZ_BEGIN);
  const next = old !== null ? md.replace(old, () => section) : fuzzAt >= 0 ? `${md.slice(0, fuzzAt)}${section}\n\n${md.slice(fuzzAt)}` : `${md.replace(/\n*$/, '')}\n\n${section}\n`;
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, next);
}

const entry = process.argv[1];
const isMain = entry !== undefined && resolve(entry) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const args = process.argv.slice(2);
  /** @param {string} flag @param {string} fallback */
  const arg = (flag, fallback) => {
    const value = args[args.indexOf(flag) + 1];
    return args.includes(flag) && value !== undefined ? resolve(value) : resolve(root, fallback);
  };
  const out = arg('--out', 'docs/reliability.md');
  if (args.includes('--fuzz-section')) {
    const fuzzPath = arg('--fuzz-section', 'test-results/fuzz.json');
    const order = args.includes('--merge') ? (args[args.indexOf('--merge') + 1] ?? '').split(',') : null;
    writeFuzzSection(out, readJson(fuzzPath), order);
    console.log(`wrote the fuzzing section of ${out} from ${fuzzPath}`);
  } else if (args.includes('--review-section')) {
    writeReviewSection(out, await computeReviewSection(root));
    console.log(`wrote the review section of ${out}`);
  } else {
    const nodePath = arg('--node', 'test-results/hostile-node.json');
    if (!existsSync(nodePath)) {
      console.error(`${nodePath} is missing: run \`npx vitest run test/unit/hostile\` first (and, for the chromium column, \`npx playwright test test/e2e/hostile.spec.ts test/e2e/faults.spec.ts\`).`);
      process.exit(1);
    }
    writeReliabilityReport({
      nodePath,
      browserPath: arg('--browser', 'test-results/hostile-browser.json'),
      faultsPath: arg('--faults', 'test-results/faults-browser.json'),
      outPath: out,
      reviewSection: await computeReviewSection(root),
    });
    console.log(`wrote ${out}`);
  }
}
