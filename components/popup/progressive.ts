// The popup draws what is visible first: the first cards at once, the rest in idle time a
// chunk at a time. A popup is about 600 px tall and shows four or five cards; drawing 200 of
// them before the first paint cost more than the whole first render with 5 (docs/benchmarks.md, the popup rows).
import { useEffect, useState } from 'preact/hooks';

/** Cards drawn in the first render: more than a popup shows, so scrolling at once finds them drawn. */
export const FIRST_CARDS = 12;
/** Cards added in each idle period after that. */
export const LATER_CARDS = 40;

type IdleWindow = { requestIdleCallback?: (fn: () => void, opts?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };

/**
 * Runs `fn` when the page is idle (within `timeout` ms at the latest; where the browser has no idle
 * callbacks, after `fallbackMs`); returns the cancel function.
 */
export function whenIdle(fn: () => void, timeout = 50, fallbackMs = 0): () => void {
  const w = globalThis as unknown as IdleWindow;
  if (typeof w.requestIdleCallback === 'function') {
    const id = w.requestIdleCallback(fn, { timeout });
    return () => w.cancelIdleCallback?.(id);
  }
  const id = setTimeout(fn, fallbackMs);
  return () => clearTimeout(id);
}

/**
 * How many of `total` items to draw now: FIRST_CARDS at first, then LATER_CARDS more in each idle
 * period until every item is drawn. A list that grows later is drawn the same way.
 */
export function useProgressiveCount(total: number): number {
  const [count, setCount] = useState(FIRST_CARDS);
  const now = Math.min(total, count);
  useEffect(() => (now < total ? whenIdle(() => setCount((c) => c + LATER_CARDS)) : undefined), [now, total]);
  return now;
}
