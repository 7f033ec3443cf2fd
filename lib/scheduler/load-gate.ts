// A probe waits for the page it came from (PRODUCT.md §2.2): between a top-level navigation's
// commit and its load event Skillpin does no probe work, no fetch, no hashing and no store write,
// so it never competes with the page for the network or the CPU. A page that never finishes
// loading lets the probe start after `capMs`. A newer navigation in the same tab, or the tab
// closing, releases the wait without starting anything for the old page.

export interface LoadGateDeps {
  capMs: number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Each gate event, for the worker's trace (tests read the order from it). */
  onEvent?(event: GateEvent): void;
}

export type GateEvent = { kind: 'commit' | 'load' | 'cap' | 'superseded' | 'closed'; tabId: number; url: string };

export interface LoadGate {
  /** Resolves true once the tab's page has loaded (or the cap passed); false when it was left first. */
  afterLoad(tabId: number, url: string): Promise<boolean>;
  /** webNavigation.onCompleted of the top frame. */
  loaded(tabId: number, url: string): void;
  /** The tab closed (or was replaced). */
  closed(tabId: number): void;
  waiting(): number;
  /** Changes the cap for waits that start from now on (tests on a loaded machine). */
  setCap(ms: number): void;
}

interface Waiter {
  url: string;
  timer: unknown;
  done: (ok: boolean) => void;
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
  const waiters = new Map<number, Waiter>();
  const emit = (kind: GateEvent['kind'], tabId: number, url: string): void => deps.onEvent?.({ kind, tabId, url });

  const settle = (tabId: number, ok: boolean, kind: GateEvent['kind']): void => {
    const w = waiters.get(tabId);
    if (!w) return;
    waiters.delete(tabId);
    deps.clearTimer(w.timer);
    emit(kind, tabId, w.url);
    w.done(ok);
  };

  return {
    afterLoad(tabId, url) {
      settle(tabId, false, 'superseded');
      emit('commit', tabId, url);
      return new Promise<boolean>((resolve) => {
        const timer = deps.setTimer(() => settle(tabId, true, 'cap'), capMs);
        waiters.set(tabId, { url, timer, done: resolve });
      });
    },
    loaded(tabId, url) {
      const w = waiters.get(tabId);
      if (w && sameOrigin(w.url, url)) settle(tabId, true, 'load');
    },
    closed(tabId) {
      settle(tabId, false, 'closed');
    },
    waiting: () => waiters.size,
    setCap(ms) {
      if (Number.isFinite(ms) && ms > 0) capMs = ms;
    },
  };
}
