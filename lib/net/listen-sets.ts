// The request guard's webRequest listener sets, one per match pattern (a host in Chrome, every
// http(s) URL in Firefox), each kept while a request of the extension to it runs and removed on its
// own a while after its last one. Chrome's `tabId: -1` filter matches every tab's requests too: a set
// kept for a host the extension checked a minute ago would be sent every request of that site's pages
// (a revisit of a publishing site loaded with each of its images and scripts going through the
// worker), so no set outlives its own host's requests because other hosts are busy.
export const BROAD = '*';

export interface ListenSetsDeps {
  /** Adds the listeners filtered to `pattern` and returns their removal; throws when the browser refuses the pattern. */
  add(pattern: string): () => void;
  /** How long a set stays after the last request that used it ended. */
  lingerMs: number;
  timers: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

export class ListenSets {
  private readonly removers = new Map<string, () => void>();
  /** A pattern the browser refused is watched through the broad set. */
  private readonly refused = new Set<string>();
  private readonly uses = new Map<string, number>();
  private readonly timers = new Map<string, unknown>();

  constructor(private readonly deps: ListenSetsDeps) {}

  /** The patterns with listeners now. */
  patterns(): string[] {
    return [...this.removers.keys()];
  }

  /**
   * Listeners for these patterns, kept until `done` is called (once) and the linger has passed.
   * `added`: a set was added now (the caller waits for the browser to have it before requesting).
   */
  use(wanted: readonly string[]): { added: boolean; done(): void } {
    const keys = [...new Set(wanted.map((p) => (this.refused.has(p) ? BROAD : p)))];
    const ensured = keys.map((want) => this.ensure(want));
    const held = ensured.map((e) => e.key);
    for (const key of held) {
      this.deps.timers.clear(this.timers.get(key));
      this.timers.delete(key);
      this.uses.set(key, (this.uses.get(key) ?? 0) + 1);
    }
    let released = false;
    return {
      added: ensured.some((e) => e.added),
      done: () => {
        if (released) return;
        released = true;
        for (const key of held) this.release(key);
      },
    };
  }

  /** The set for `pattern` (or the broad one when the browser refuses it), added when missing. */
  private ensure(pattern: string): { key: string; added: boolean } {
    if (this.removers.has(pattern)) return { key: pattern, added: false };
    try {
      this.removers.set(pattern, this.deps.add(pattern));
      return { key: pattern, added: true };
    } catch (err) {
      // A pattern the browser refuses: every http(s) URL is watched instead, never none.
      if (pattern === BROAD) throw err;
      this.refused.add(pattern);
      return this.ensure(BROAD);
    }
  }

  private release(key: string): void {
    const left = (this.uses.get(key) ?? 1) - 1;
    if (left > 0) {
      this.uses.set(key, left);
      return;
    }
    this.uses.delete(key);
    this.timers.set(
      key,
      this.deps.timers.set(() => {
        this.timers.delete(key);
        if (this.uses.has(key)) return;
        this.removers.get(key)?.();
        this.removers.delete(key);
      }, this.deps.lingerMs),
    );
  }
}
