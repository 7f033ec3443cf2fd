// How input from outside is checked, at every boundary (ARCHITECTURE.md §1): a zod/mini schema
// states its shape and bounds, and parseInput runs it. The answer is the parsed value (a fresh
// copy; a z.object leaves unknown keys out) or every problem, in one shape everywhere.
import * as z from 'zod/mini';

// The extension's pages and worker forbid eval: zod is told not to try it (a refused try is
// still reported as a policy violation).
z.config({ jitless: true });

export { z };

/** What was wrong: where (`pins[0].origin`; '' for the input itself) and what. */
export interface InputError {
  path: string;
  message: string;
}

/** The value, or every problem found (at least one), in the order the schema met them. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: InputError[] };

export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, errors: result.error.issues.map((issue) => ({ path: pathText(issue.path), message: issue.message })) };
}

/** `pins[0].origin` for ['pins', 0, 'origin']. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/** A SHA-256 digest as Skillpin writes it: 64 lowercase hex digits. */
export const HEX64 = /^[0-9a-f]{64}$/;

/** A key fingerprint (lib/verify/fingerprint.ts): `SHA256:` and 43 characters of unpadded base64. */
export const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** A string of at most `max` characters. */
export function text(max: number): z.ZodMiniString<string> {
  return z.string().check(z.maxLength(max));
}

/**
 * A value built the first time it is asked for, then kept. Schemas are built this way: the worker
 * starts often and most of its schemas (the desktop protocol, a backup, the settings) serve
 * requests that a start-up may never see, and each one built holds heap while the worker lives.
 */
export function lazy<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => {
    if (!value) value = { built: build() };
    return value.built;
  };
}
