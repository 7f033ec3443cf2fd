// A list the page asks the background for: loading, its error in words, or its items; asked again
// whenever `deps` change (the items shown stay until the new answer), an older answer arriving late dropped.
import { useEffect, useState } from 'preact/hooks';
import { errorText } from './format';

export type ListState<T> = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; items: T[] };

/** `load` undefined: nothing is asked for (the state stays loading). */
export function useList<T>(load: (() => Promise<T[]>) | undefined, deps: readonly unknown[]): ListState<T> {
  const [state, setState] = useState<ListState<T>>({ phase: 'loading' });
  useEffect(() => {
    if (!load) return;
    let live = true;
    load()
      .then((items) => live && setState({ phase: 'ready', items }))
      .catch((err: unknown) => live && setState({ phase: 'error', message: errorText(err) }));
    return () => {
      live = false;
    };
  }, deps);
  return state;
}
