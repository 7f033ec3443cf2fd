// How many modules of lib/ one probe of a publishing site runs through, and how often it enters each:
// V8's precise coverage with call counts (node:inspector), taken around one probeOrigin of a loopback
// site with 5 signed skills (first visit, then a revisit past the cache lifetimes). A module counts as
// passed when any of its functions ran; an entry is a call of one of its exported functions (most come
// from other modules). Prints a table; asserts nothing about the figures.
//   npx vitest run -c test/measure/vitest.config.ts
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { probeOrigin } from '../../lib/probe/probe-origin';
import { DEFAULT_SETTINGS } from '../../lib/types';
import { FakeClock } from '../support/engine-harness';
import { buildSite, keyPair } from '../support/signed-sites';
import { serversClosedAfterEach } from '../support/test-servers';
import { openTestStore } from '../support/trust-store';

const root = resolve(import.meta.dirname, '../..');
const startTestServer = serversClosedAfterEach();

interface FunctionCoverage {
  functionName: string;
  ranges: { count: number }[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

function exportedNames(file: string): Set<string> {
  const src = readFileSync(file, 'utf8');
  const names = new Set<string>();
  for (const m of src.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z0-9_$]+)/gm)) names.add(m[1] as string);
  return names;
}

function libFile(url: string): string | null {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const rel = relative(root, path.split('?')[0] as string);
  return rel.startsWith('lib/') && /\.tsx?$/.test(rel) ? rel : null;
}

it('one probe through lib/', async () => {
  const site = await startTestServer({ files: buildSite({ skills: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name })), key: keyPair(71) }) });
  const { store } = await openTestStore();
  const clock = new FakeClock();
  const deps = { fetch: (u: string, i?: RequestInit) => fetch(u, i), store, clock, settings: DEFAULT_SETTINGS };
  // Warm: every module loaded and run once, so the measured probes count calls, not module set-up.
  await probeOrigin(site.origin, deps);
  clock.advance(25 * 3600_000);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  const report = await probeOrigin(site.origin, deps, { force: true });
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as { result: ScriptCoverage[] };
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  expect(report.skills).toHaveLength(5);

  const rows: { file: string; entries: number; calls: number }[] = [];
  for (const script of result) {
    const file = libFile(script.url);
    if (!file) continue;
    const exported = exportedNames(resolve(root, file));
    let entries = 0;
    let calls = 0;
    for (const f of script.functions) {
      const n = f.ranges[0]?.count ?? 0;
      if (f.functionName === '' && f.ranges.length > 0 && script.functions.indexOf(f) === 0) continue; // the module's own body
      calls += n;
      if (exported.has(f.functionName)) entries += n;
    }
    if (calls > 0) rows.push({ file, entries, calls });
  }
  rows.sort((a, b) => b.entries - a.entries || a.file.localeCompare(b.file));
  const lines = rows.map((r) => `${String(r.entries).padStart(6)} ${String(r.calls).padStart(7)}  ${r.file}`);
  console.log(
    [
      `one forced probe of a site with 5 signed skills: ${rows.length} modules of lib/ run, ${rows.reduce((n, r) => n + r.entries, 0)} calls of exported functions`,
      ' entries   calls  module',
      ...lines,
    ].join('\n'),
  );
  expect(rows.length).toBeGreaterThan(0);
});
