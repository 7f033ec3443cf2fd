// @ts-check
// `web-ext lint` over the Firefox build, failing on any error, warning or notice that comes
// from our own code. Findings inside bundled libraries (scripts/lib/package-check.mjs names
// them by the code they point at) are listed but do not fail.
// Usage: node scripts/lint-firefox.mjs [source dir, default .output/firefox-mv3]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyLint } from './lib/package-check.mjs';

const dir = process.argv[2] ?? '.output/firefox-mv3';
const r = spawnSync(join('node_modules', '.bin', 'web-ext'), ['lint', '--source-dir', dir, '--self-hosted', '--output', 'json', '--no-input'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
/** @type {{ errors: any[], warnings: any[], notices: any[] }} */
let report;
try {
  report = JSON.parse(r.stdout);
} catch {
  console.error(`web-ext lint gave no JSON report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  process.exit(1);
}
const all = [...report.errors, ...report.warnings, ...report.notices];
const { ours, library } = classifyLint(all, (file) => {
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch {
    return null;
  }
});
for (const m of library) console.log(`library (${m.library}): ${m.code} ${m.file}:${m.line}:${m.column}`);
for (const m of ours) console.log(`OURS: ${m._type} ${m.code} ${m.file ?? ''}${m.line ? `:${m.line}:${m.column}` : ''} ${m.message ?? ''}`);
console.log(`web-ext lint: ${ours.length} finding(s) from our code, ${library.length} inside bundled libraries`);
process.exit(ours.length === 0 ? 0 : 1);
