// The Chromium runner's result file and the reliability document it feeds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserCases } from '../../hostile/catalogue';
import { recordBrowserResult } from '../../e2e/support/hostile-results';
import { writeFuzzSection, writeReliabilityReport } from '../../../scripts/lib/reliability-report.mjs';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillpin-hostile-results-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const read = (path: string): { runner: string; cases: { id: string; pass: boolean }[] } => JSON.parse(readFileSync(path, 'utf8'));

describe('recordBrowserResult', () => {
  it('keeps one result per case, the latest, in catalogue order', () => {
    const path = join(dir, 'hostile-browser.json');
    const [a, b] = browserCases();
    if (!a || !b) throw new Error('the browser subset has fewer than two cases');
    recordBrowserResult({ id: b.id, observed: 'x', pass: false, problems: ['p'] }, path);
    recordBrowserResult({ id: a.id, observed: 'y', pass: true, problems: [] }, path);
    recordBrowserResult({ id: b.id, observed: 'z', pass: true, problems: [] }, path);
    const doc = read(path);
    expect(doc.runner).toBe('chromium');
    expect(doc.cases.map((c) => [c.id, c.pass])).toEqual([
      [a.id, true],
      [b.id, true],
    ]);
  });

  it('drops results of cases that left the browser subset and survives a damaged file', () => {
    const path = join(dir, 'hostile-browser.json');
    writeFileSync(path, JSON.stringify({ runner: 'chromium', generatedAt: 'then', cases: [{ id: 'no-such-case', observed: '', pass: true, problems: [] }] }));
    const first = browserCases()[0];
    if (!first) throw new Error('empty browser subset');
    recordBrowserResult({ id: first.id, observed: 'o', pass: true, problems: [] }, path);
    expect(read(path).cases.map((c) => c.id)).toEqual([first.id]);
    writeFileSync(path, '{ not json');
    recordBrowserResult({ id: first.id, observed: 'o', pass: false, problems: [] }, path);
    expect(read(path).cases).toHaveLength(1);
  });
});

describe('writeReliabilityReport (npm run docs)', () => {
  const nodeRow = (c: ReturnType<typeof browserCases>[number]) => ({
    id: c.id,
    category: c.category,
    title: c.title,
    browserOnly: c.browserOnly === true,
    browser: { include: true, assert: c.browser?.assert ?? null },
    expected: 'E',
    observed: 'E',
    pass: true,
    problems: [],
    ms: 1,
  });

  it('fills the chromium column from the browser results', () => {
    const c = browserCases()[0];
    if (!c || !c.browser) throw new Error('empty browser subset');
    const node = join(dir, 'node.json');
    const browser = join(dir, 'browser.json');
    const out = join(dir, 'reliability.md');
    writeFileSync(node, JSON.stringify({ runner: 'node', generatedAt: 'n', cases: [nodeRow(c)] }));
    recordBrowserResult({ id: c.id, observed: 'seen in chromium', pass: false, problems: ['a beacon was reached'] }, browser);
    writeReliabilityReport({ nodePath: node, browserPath: browser, outPath: out });
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('❌ seen in chromium (a beacon was reached)');
    expect(md).toMatch(/chromium: ❌ seen in chromium/);
  });

  it('gives the same bytes for the same results written at other times, and keeps the fuzzing section', () => {
    const c = browserCases()[0];
    if (!c) throw new Error('empty browser subset');
    const node = join(dir, 'node.json');
    const out = join(dir, 'reliability.md');
    writeFileSync(node, JSON.stringify({ runner: 'node', generatedAt: '2026-01-01T00:00:00.000Z', cases: [nodeRow(c)] }));
    writeReliabilityReport({ nodePath: node, browserPath: join(dir, 'none.json'), outPath: out, faultsPath: join(dir, 'none.json') });
    const first = readFileSync(out, 'utf8');
    expect(first).toContain('Pending: run `npm run fuzz`.');
    const fuzz = {
      runner: 'fuzz',
      generatedAt: '2026-02-03T04:05:06.000Z',
      node: 'v20',
      seed: 7,
      runsPerTarget: 5,
      durationMs: 1000,
      complete: true,
      targets: [
        {
          id: 'decode',
          entry: 'decodeUtf8',
          inputs: 'bytes',
          seed: 7,
          runs: 5,
          skipped: 0,
          failed: false,
          durationMs: 10,
          counterexample: null,
          error: null,
          path: null,
          shrinks: 0,
          outcomes: { lines: 5 },
        },
      ],
    };
    writeFuzzSection(out, fuzz as Parameters<typeof writeFuzzSection>[1]);
    const withFuzz = readFileSync(out, 'utf8');
    expect(withFuzz).toContain('| `decode` | decodeUtf8 | bytes | 5 | 0 | 1 |');
    expect(withFuzz).not.toContain('Pending: run `npm run fuzz`.');
    writeFileSync(node, JSON.stringify({ runner: 'node', generatedAt: '2026-12-31T23:59:59.000Z', cases: [nodeRow(c)] }));
    writeReliabilityReport({ nodePath: node, browserPath: join(dir, 'none.json'), outPath: out, faultsPath: join(dir, 'none.json') });
    expect(readFileSync(out, 'utf8')).toBe(withFuzz);
    expect(withFuzz).not.toMatch(/2026-01-01|2026-12-31/);
  });
});
