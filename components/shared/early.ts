// Answers asked for before the page draws: a page sends its list requests as its script starts,
// instead of after its first paint when the sections' effects run. Each early answer is handed to
// the first call of its method only; later calls (reloads after a change) ask the background again.

/** The names of `T`'s methods that take no argument and return a promise. */
export type NoArgMethod<T> = { [K in keyof T]: T[K] extends () => Promise<unknown> ? K : never }[keyof T];

/**
 * `names` are asked for now; `later` once the first of `names` has answered (or failed), so that
 * the worker answers what the page draws first before the requests of the sections below it.
 */
export function withEarlyAnswers<T extends object>(client: T, names: readonly NoArgMethod<T>[], later: readonly NoArgMethod<T>[] = []): T {
  const out: T = { ...client };
  const ask = (name: NoArgMethod<T>) => (client[name] as unknown as () => Promise<unknown>).call(client);
  const hold = (name: NoArgMethod<T>, start: () => Promise<unknown>) => {
    let early: Promise<unknown> | null = start();
    // Handled where it is handed over; never an unhandled rejection if no one asks.
    early.catch(() => undefined);
    (out as Record<PropertyKey, unknown>)[name as PropertyKey] = (): Promise<unknown> => {
      const answer = early;
      early = null;
      return answer ?? ask(name);
    };
    return early;
  };
  const asked = names.map((name) => hold(name, () => ask(name)));
  const settled = (asked[0] ?? Promise.resolve()).catch(() => undefined);
  for (const name of later) hold(name, () => settled.then(() => ask(name)));
  return out;
}
