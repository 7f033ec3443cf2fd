// The details view (SKILL.md rendering with marked and DOMPurify, the diff of changes)
// is a chunk of its own: the popup's list does not wait for code it only needs once a
// skill is opened. Loaded on first use, or ahead of time once the list is on screen.
import type { SkillDetails } from './SkillDetails';
import { whenIdle } from './progressive';

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
  return whenIdle(() => void loadSkillDetails().catch(() => undefined), 1000, 50);
}
