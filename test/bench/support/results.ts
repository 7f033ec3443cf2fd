// The JSON each bench writes to test-results/bench/<id>.json; scripts/bench.mjs reads them all
// and writes docs/benchmarks.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TargetCheck {
  what: string;
  target: string;
  measured: string;
  /** null: informative, no target. */
  met: boolean | null;
  why?: string;
}

export interface BenchSection {
  id: string;
  title: string;
  columns: string[];
  rows: (string | number)[][];
  targets: TargetCheck[];
  notes: string[];
  /** Raw figures for anyone who wants to recompute. */
  raw?: Record<string, unknown>;
  seconds?: number;
}

export const RESULTS_DIR = resolve(process.env.BENCH_RESULTS_DIR ?? 'test-results/bench');

export function writeSection(section: BenchSection): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${section.id}.json`);
  writeFileSync(file, JSON.stringify(section, null, 2) + '\n');
  return file;
}

/** The command that reproduces one bench file (optionally one test of it). */
export function reproCommand(file: string, grep?: string): string {
  return `npx playwright test -c test/bench/playwright.bench.config.ts ${file}${grep ? ` -g "${grep}"` : ''}`;
}
