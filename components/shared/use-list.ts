// A list the page asks the background for: loading, its error in words, or its items; asked again
// whenever `deps` change (the items shown stay until the new answer), an older answer arriving late dropped.
import { useEffect, useState } from 'preact/hooks';
import { errorText } from './format';

export type ListState<T> = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; items: T[] };

/**
 * Runs `start` (in `effect`: useEffect, or useLayoutEffect) whenever `deps` change; its `live()` turns
 * false when they change again or the page goes, so an older answer arriving late is dropped.
 */
export function useLive(deps: readonly unknown[], start: (live: () => boolean) => void, effect = useEffect): void {
  effect(() => {
    let on = true;
    start(() => on);
    return () => {
      on = false;
    };
  }, deps);
}

/** `load` undefined: nothing is asked for (the state stays loading). */
export function useList<T>(load: (() => Promise<T[]>) | undefined, deps: readonly unknown[]): ListState<T> {
  const [state, setState] = useState<ListState<T>>({ phase: 'loading' });
  useLive(deps, (live) => {
    load?.()
      .then((items) => live() && setState({ phase: 'ready', items }))
      .catch((err: unknown) => live() && setState({ phase: 'error', message: errorText(err) }));
  });
  return state;
}
