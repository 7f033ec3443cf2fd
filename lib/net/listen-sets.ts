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

/** One pattern's listeners: their removal, the requests using them, the timer of their removal. */
interface ListenSet {
  remove: () => void;
  uses: number;
  timer: unknown;
}

export class ListenSets {
  private readonly sets = new Map<string, ListenSet>();
  /** A pattern the browser refused is watched through the broad set. */
  private readonly refused = new Set<string>();

  constructor(private readonly deps: ListenSetsDeps) {}

  /** The patterns with listeners now. */
  patterns(): string[] {
    return [...this.sets.keys()];
  }

  /**
   * Listeners for these patterns, kept until `done` is called (once) and the linger has passed.
   * `added`: a set was added now (the caller waits for the browser to have it before requesting).
   */
  use(wanted: readonly string[]): { added: boolean; done(): void } {
    const keys = [...new Set(wanted.map((p) => (this.refused.has(p) ? BROAD : p)))];
    const ensured = keys.map((want) => this.ensure(want));
    for (const { set } of ensured) {
      this.deps.timers.clear(set.timer);
      set.timer = undefined;
      set.uses += 1;
    }
    let released = false;
    return {
      added: ensured.some((e) => e.added),
      done: () => {
        if (released) return;
        released = true;
        for (const { key, set } of ensured) this.release(key, set);
      },
    };
  }

  /** The set for `pattern` (or the broad one when the browser refuses it), added when missing. */
  private ensure(pattern: string): { key: string; set: ListenSet; added: boolean } {
    const known = this.sets.get(pattern);
    if (known) return { key: pattern, set: known, added: false };
    try {
      const set: ListenSet = { remove: this.deps.add(pattern), uses: 0, timer: undefined };
      this.sets.set(pattern, set);
      return { key: pattern, set, added: true };
    } catch (err) {
      // A pattern the browser refuses: every http(s) URL is watched instead, never none.
      if (pattern === BROAD) throw err;
      this.refused.add(pattern);
      return this.ensure(BROAD);
    }
  }

  private release(key: string, set: ListenSet): void {
    set.uses -= 1;
    if (set.uses > 0) return;
    set.timer = this.deps.timers.set(() => {
      set.timer = undefined;
      if (set.uses > 0) return;
      set.remove();
      this.sets.delete(key);
    }, this.deps.lingerMs);
  }
}
