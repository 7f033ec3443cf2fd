// Answers asked for before the page draws: the options page sends its list requests as its
// script starts, instead of after its first paint when the sections' effects run. Each early
// answer is handed to the first call of its method only; later calls (reloads after a
// change) ask the background again.

/** The names of `T`'s methods that take no argument and return a promise. */
export type NoArgMethod<T> = { [K in keyof T]: T[K] extends () => Promise<unknown> ? K : never }[keyof T];

export function withEarlyAnswers<T extends object>(client: T, names: readonly NoArgMethod<T>[]): T {
  const out: T = { ...client };
  for (const name of names) {
    const original = client[name] as unknown as () => Promise<unknown>;
    let early: Promise<unknown> | null = original.call(client);
    // Handled where it is handed over; never an unhandled rejection if no one asks.
    early.catch(() => undefined);
    const first = (): Promise<unknown> => {
      const answer = early;
      early = null;
      return answer ?? original.call(client);
    };
    (out as Record<PropertyKey, unknown>)[name as PropertyKey] = first;
  }
  return out;
}
