// A probe waits for the page it came from (PRODUCT.md §2.2): between a top-level navigation's
// commit and its load event Skillpin does no probe work, no fetch, no hashing and no store write,
// so it never competes with the page for the network or the CPU. A page that never finishes
// loading lets the probe start after the cap. A newer navigation in the same tab, or the tab
// closing, releases the wait without starting anything for the old page.
//
// The commit is noted synchronously in the navigation listener (`committed`), before the probe's
// own asynchronous checks run, so a page that loads at once is never missed: its load event may
// arrive before the probe asks to wait (`afterLoad`), which then answers at once.

export interface LoadGateDeps {
  capMs: number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Each gate event, for the worker's trace (tests read the order from it). */
  onEvent?(event: GateEvent): void;
}

export type GateEvent = { kind: 'commit' | 'load' | 'cap' | 'superseded' | 'closed'; tabId: number; url: string };

export interface LoadGate {
  /** webNavigation.onCommitted of the top frame: the tab's page starts loading. */
  committed(tabId: number, url: string): void;
  /** Resolves true once the tab's page has loaded (or the cap passed); false when it was left first. */
  afterLoad(tabId: number, url: string): Promise<boolean>;
  /** webNavigation.onCompleted of the top frame. */
  loaded(tabId: number, url: string): void;
  /** The tab closed (or was replaced). */
  closed(tabId: number): void;
  /** Pages still loading. */
  waiting(): number;
  /** Changes the cap for pages committed from now on (tests on a loaded machine). */
  setCap(ms: number): void;
}

interface Page {
  url: string;
  loaded: boolean;
  timer: unknown;
  waiters: Array<(ok: boolean) => void>;
}

/** The load event is the committed document's (events of a tab arrive in order); its URL may
 * differ from the committed one after history.pushState, never its origin. */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}

export function createLoadGate(deps: LoadGateDeps): LoadGate {
  let capMs = deps.capMs;
  const pages = new Map<number, Page>();
  /** The last pages each tab left, with whether they had loaded: a probe's checks may finish
   * after its tab has moved on, and a page that loaded before it was left is still probed. */
  const left = new Map<number, Array<{ url: string; loaded: boolean }>>();
  /** Tabs closed lately: a probe whose checks finish after its tab closed waits for nothing. Tab ids are not reused. */
  const gone = new Set<number>();
  const emit = (kind: GateEvent['kind'], tabId: number, url: string): void => deps.onEvent?.({ kind, tabId, url });

  const open = (tabId: number, kind: 'load' | 'cap'): void => {
    const p = pages.get(tabId);
    if (!p || p.loaded) return;
    p.loaded = true;
    deps.clearTimer(p.timer);
    emit(kind, tabId, p.url);
    for (const w of p.waiters.splice(0)) w(true);
  };

  const leave = (tabId: number, kind: 'superseded' | 'closed'): void => {
    const p = pages.get(tabId);
    if (!p) return;
    pages.delete(tabId);
    deps.clearTimer(p.timer);
    if (!p.loaded) emit(kind, tabId, p.url);
    if (kind === 'closed') left.delete(tabId);
    else left.set(tabId, [{ url: p.url, loaded: p.loaded }, ...(left.get(tabId) ?? [])].slice(0, 8));
    for (const w of p.waiters.splice(0)) w(false);
  };

  const committed = (tabId: number, url: string): void => {
    gone.delete(tabId);
    leave(tabId, 'superseded');
    const page: Page = { url, loaded: false, timer: null, waiters: [] };
    pages.set(tabId, page);
    emit('commit', tabId, url);
    page.timer = deps.setTimer(() => open(tabId, 'cap'), capMs);
  };

  return {
    committed,
    afterLoad(tabId, url) {
      if (gone.has(tabId)) return Promise.resolve(false);
      let p = pages.get(tabId);
      if (p && p.url !== url) {
        // The tab has moved on since this page committed.
        const was = left.get(tabId)?.find((l) => l.url === url);
        return Promise.resolve(was?.loaded === true);
      }
      if (!p) {
        committed(tabId, url);
        p = pages.get(tabId) as Page;
      }
      if (p.loaded) return Promise.resolve(true);
      const page = p;
      return new Promise<boolean>((resolve) => page.waiters.push(resolve));
    },
    loaded(tabId, url) {
      const p = pages.get(tabId);
      if (p && sameOrigin(p.url, url)) open(tabId, 'load');
    },
    closed(tabId) {
      leave(tabId, 'closed');
      gone.add(tabId);
      if (gone.size > 256) gone.delete(gone.values().next().value as number);
    },
    waiting: () => [...pages.values()].filter((p) => !p.loaded).length,
    setCap(ms) {
      if (Number.isFinite(ms) && ms > 0) capMs = ms;
    },
  };
}
