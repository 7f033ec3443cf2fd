// Records each fault test's outcome into test-results/faults-browser.json (merged by title,
// so a retry or a partial run keeps the rest); `npm run docs` puts it into docs/reliability.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { TestInfo } from '@playwright/test';

export const FAULT_RESULTS = resolve('test-results/faults-browser.json');

interface FaultCase {
  title: string;
  pass: boolean;
  observed: string;
  ms: number;
}

export function recordFaultResult(info: TestInfo, path = FAULT_RESULTS): void {
  const pass = info.status === info.expectedStatus;
  const firstError = info.errors[0]?.message?.split('\n').find((l) => l.trim() !== '') ?? '';
  const observed = pass ? 'as expected' : `${info.status}: ${firstError.replace(/\u001b\[[0-9;]*m/g, '').slice(0, 300)}`;
  let cases: FaultCase[] = [];
  if (existsSync(path)) {
    try {
      const old = JSON.parse(readFileSync(path, 'utf8')) as { cases?: FaultCase[] };
      cases = Array.isArray(old.cases) ? old.cases : [];
    } catch {
      cases = [];
    }
  }
  const entry: FaultCase = { title: info.titlePath.slice(1).join(' › '), pass, observed, ms: Math.round(info.duration) };
  const at = cases.findIndex((c) => c.title === entry.title);
  if (at >= 0) cases[at] = entry;
  else cases.push(entry);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ runner: 'chromium-faults', generatedAt: new Date().toISOString(), cases }, null, 2));
}
