// The details view's component for the popup, loaded from its own chunk (details-loader.ts)
// the first time a skill is opened.
import { useState } from 'preact/hooks';
import { useLive } from '../shared/use-list';
import { errorText } from '../shared/format';
import { loadedSkillDetails, loadSkillDetails, type SkillDetailsComponent } from './details-loader';

export type DetailsState = { phase: 'ready'; Details: SkillDetailsComponent } | { phase: 'loading' } | { phase: 'error'; message: string };

/** The details component, loaded when `wanted` first becomes true. */
export function useSkillDetails(wanted: boolean): DetailsState {
  const [state, setState] = useState<DetailsState>(() => {
    const Details = loadedSkillDetails();
    return Details ? { phase: 'ready', Details } : { phase: 'loading' };
  });
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
