// One fuzz target: a parser or the unpacker, the inputs it is fed and the invariants every
// outcome must keep. The CI sample (test/unit/fuzz) and `npm run fuzz` run the same properties;
// only the number of runs and the seed differ.
import type fc from 'fast-check';

export interface FuzzTarget {
  /** Stable kebab-case id, listed in docs/reliability.md. */
  id: string;
  /** The public entry point that is fed, and where it lives. */
  entry: string;
  /** What the generated inputs are, in words. */
  inputs: string;
  /** A fresh property: fast-check runs it with a seed and a number of runs. */
  // biome-ignore lint/suspicious/noExplicitAny: each target has its own tuple of inputs
  property: () => fc.IRawProperty<any, boolean>;
  /** A check `npm run fuzz` runs once before the inputs (a timing check: not in the fixed-seed unit sample); null when it holds. */
  preflight?: () => string | null;
}

/** A broken invariant: the property fails with this message (and fast-check shrinks the input). */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

export function violation(message: string): never {
  throw new InvariantError(message);
}

export function check(ok: boolean, message: string | (() => string)): void {
  if (!ok) violation(typeof message === 'string' ? message : message());
}

/** Calls a parser; an exception escaping it is reported as such (nothing may throw out of a parser). */
export function call<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return violation(`${what} threw ${detail}`);
  }
}

export async function callAsync<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return violation(`${what} threw ${detail}`);
  }
}

/** Outcomes seen during a run (status or code), to show how deep the inputs reach. */
export const outcomes = new Map<string, number>();

export function seen(outcome: string): void {
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
}
