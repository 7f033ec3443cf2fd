export interface Exit {
  status: number | null;
  signal?: string | null;
  error?: string;
}
export interface Outcome {
  label: string;
  passed: number;
  failed: number;
  skipped: number;
  flaky: string[];
  problems: string[];
}
export interface Rules {
  floor: number;
  ci: boolean;
}
export interface ResultFiles {
  remove(path: string): void;
  read(path: string): string | null;
}
export const TEST_FLOORS: { unit: number; e2e: number };
export function commandOutcome(label: string, exit: Exit): Outcome;
export function vitestOutcome(exit: Exit, text: string | null, rules: Rules): Outcome;
export function playwrightOutcome(exit: Exit, text: string | null, rules: Rules): Outcome;
export function runTestStep(runner: 'vitest' | 'playwright', step: { resultsFile: string; exec: () => Exit; files: ResultFiles; rules: Rules }): Outcome;
export function stepLines(o: Outcome): string[];
export function closingLines(outcomes: Outcome[]): { lines: string[]; ok: boolean };
