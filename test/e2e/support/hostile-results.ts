// The Chromium runner's results: test-results/hostile-browser.json, written after every case
// (a worker restarted after a failure loses nothing). `npm run docs` reads it, together with the
// node runner's test-results/hostile-node.json, to write docs/reliability.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { browserCases } from '../../hostile/catalogue';

export const BROWSER_RESULTS = resolve('test-results/hostile-browser.json');

export interface BrowserCaseResult {
  id: string;
  observed: string;
  pass: boolean;
  problems: string[];
}

interface BrowserResults {
  runner: 'chromium';
  generatedAt: string;
  cases: BrowserCaseResult[];
}

function isResult(v: unknown): v is BrowserCaseResult {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return typeof r['id'] === 'string' && typeof r['observed'] === 'string' && typeof r['pass'] === 'boolean' && Array.isArray(r['problems']);
}

function readResults(path: string): BrowserCaseResult[] {
  if (!existsSync(path)) return [];
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { runner?: unknown; cases?: unknown };
    return doc.runner === 'chromium' && Array.isArray(doc.cases) ? doc.cases.filter(isResult) : [];
  } catch {
    return [];
  }
}

/**
 * Stores one case's result in the results file, replacing that case's earlier result. Cases
 * no longer in the browser subset are dropped; the others keep catalogue order.
 */
export function recordBrowserResult(result: BrowserCaseResult, path = BROWSER_RESULTS): void {
  const byId = new Map(readResults(path).map((r) => [r.id, r]));
  byId.set(result.id, result);
  const cases = browserCases()
    .map((c) => byId.get(c.id))
    .filter((r): r is BrowserCaseResult => r !== undefined);
  const doc: BrowserResults = { runner: 'chromium', generatedAt: new Date().toISOString(), cases };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(doc, null, 2) + '\n');
}
