// The details view (SKILL.md rendering with marked and DOMPurify, the diff of changes)
// is a chunk of its own: the popup's list does not wait for code it only needs once a
// skill is opened. Loaded on first use, or ahead of time once the list is on screen.
import { useState } from 'preact/hooks';
import type { SkillDetails } from './SkillDetails';
import { whenIdle } from './progressive';
import { useLive } from '../shared/use-list';
import { errorText } from '../shared/format';

export type SkillDetailsComponent = typeof SkillDetails;

export type DetailsState = { phase: 'ready'; Details: SkillDetailsComponent } | { phase: 'loading' } | { phase: 'error'; message: string };

let loaded: SkillDetailsComponent | null = null;
let loading: Promise<SkillDetailsComponent> | null = null;

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

/** The details component, loaded when `wanted` first becomes true. */
export function useSkillDetails(wanted: boolean): DetailsState {
  const [state, setState] = useState<DetailsState>(() => (loaded ? { phase: 'ready', Details: loaded } : { phase: 'loading' }));
  useLive([wanted, state.phase === 'ready'], (live) => {
    if (!wanted || state.phase === 'ready') return;
    setState({ phase: 'loading' });
    loadSkillDetails().then(
      (Details) => live() && setState({ phase: 'ready', Details }),
      (err: unknown) => live() && setState({ phase: 'error', message: errorText(err) }),
    );
  });
  return state;
}
