// The details view (SKILL.md rendering with marked and DOMPurify, the diff of changes)
// is a chunk of its own: the popup's list does not wait for code it only needs once a
// skill is opened. Loaded on first use, or ahead of time once the list is on screen.
import type { SkillDetails } from './SkillDetails';

export type SkillDetailsComponent = typeof SkillDetails;

let loaded: SkillDetailsComponent | null = null;
let loading: Promise<SkillDetailsComponent> | null = null;

/** The details component when its chunk is already loaded, else null. */
export function loadedSkillDetails(): SkillDetailsComponent | null {
  return loaded;
}

/** Loads the details chunk once; a failed load is tried again on the next call. */
export function loadSkillDetails(): Promise<SkillDetailsComponent> {
  loading ??= import('./SkillDetails').then(
    (m) => (loaded = m.SkillDetails),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** Starts loading the details chunk when the page is idle (after the list is drawn). */
export function preloadSkillDetails(): () => void {
  if (loaded) return () => undefined;
  const g = globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
  const start = () => void loadSkillDetails().catch(() => undefined);
  if (typeof g.requestIdleCallback === 'function' && typeof g.cancelIdleCallback === 'function') {
    const id = g.requestIdleCallback(start, { timeout: 1000 });
    return () => g.cancelIdleCallback?.(id);
  }
  const id = setTimeout(start, 50);
  return () => clearTimeout(id);
}
