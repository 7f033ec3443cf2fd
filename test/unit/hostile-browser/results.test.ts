// The Chromium runner's result file and the reliability document it feeds.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserCases } from '../../hostile/catalogue';
import { recordBrowserResult, regenerateReliability } from '../../e2e/support/hostile-results';

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

describe('regenerateReliability', () => {
  it('writes nothing without the node results, and says why', () => {
    const out = join(dir, 'reliability.md');
    const r = regenerateReliability({ node: join(dir, 'missing.json'), browser: join(dir, 'b.json'), out });
    expect(r.written).toBe(false);
    expect(r.reason).toMatch(/missing/);
    expect(existsSync(out)).toBe(false);
  });

  it('fills the chromium column from the browser results', () => {
    const c = browserCases()[0];
    if (!c || !c.browser) throw new Error('empty browser subset');
    const node = join(dir, 'node.json');
    const browser = join(dir, 'browser.json');
    const out = join(dir, 'reliability.md');
    const row = { id: c.id, category: c.category, title: c.title, browserOnly: c.browserOnly === true, browser: { include: true, assert: c.browser.assert }, expected: 'E', observed: 'E', pass: true, problems: [], ms: 1 };
    writeFileSync(node, JSON.stringify({ runner: 'node', generatedAt: 'n', cases: [row] }));
    recordBrowserResult({ id: c.id, observed: 'seen in chromium', pass: false, problems: ['a beacon was reached'] }, browser);
    expect(regenerateReliability({ node, browser, out }).written).toBe(true);
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('❌ seen in chromium (a beacon was reached)');
    expect(md).toMatch(/chromium: ❌ seen in chromium/);
  });
});
