// Responses a test server holds back until the test releases them (or a deadline passes), so
// that a test can look at the browser while the extension's request is still running.
export interface Hold {
  /** Resolves when released, or after the deadline. */
  wait(): Promise<void>;
  /** Requests held right now. */
  count(): number;
  release(): void;
}

export function createHold(maxMs: number): Hold {
  const held: Array<() => void> = [];
  return {
    wait: () =>
      new Promise<void>((ok) => {
        const answer = (): void => {
          clearTimeout(timer);
          const at = held.indexOf(answer);
          if (at >= 0) held.splice(at, 1);
          ok();
        };
        const timer = setTimeout(answer, maxMs);
        held.push(answer);
      }),
    count: () => held.length,
    release: () => {
      for (const answer of [...held]) answer();
    },
  };
}
