// Runs one target with fast-check and describes the outcome as plain data: the counts, the seed,
// the time taken and, for a failure, the minimised counterexample and the broken invariant.
import fc from 'fast-check';
import { outcomes, type FuzzTarget } from './types';

export interface FuzzResult {
  id: string;
  entry: string;
  inputs: string;
  seed: number;
  /** Inputs run (on a failure, those run up to and including the first failing one). */
  runs: number;
  /** Inputs the property gave up on (none of the targets filters, so 0 in practice). */
  skipped: number;
  failed: boolean;
  durationMs: number;
  /** The minimised failing input, as fast-check prints it, and what went wrong. */
  counterexample: string | null;
  error: string | null;
  /** fast-check's path, to replay the failure with `{ seed, path }`. */
  path: string | null;
  shrinks: number;
  /** How often each outcome (status or code) was seen, most frequent first. */
  outcomes: Record<string, number>;
}

export async function runTarget(target: FuzzTarget, numRuns: number, seed: number): Promise<FuzzResult> {
  outcomes.clear();
  const started = performance.now();
  const details = await fc.check(target.property(), { numRuns, seed, endOnFailure: false });
  const durationMs = Math.round(performance.now() - started);
  const failure = details.failed ? details.errorInstance : null;
  return {
    id: target.id,
    entry: target.entry,
    inputs: target.inputs,
    seed,
    runs: details.numRuns,
    skipped: details.numSkips,
    failed: details.failed,
    durationMs,
    counterexample: details.counterexample ? fc.stringify(details.counterexample) : null,
    error: failure === null ? null : failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure),
    path: details.counterexamplePath,
    shrinks: details.numShrinks,
    outcomes: Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
  };
}
