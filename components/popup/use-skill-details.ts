// The details view's component for the popup, loaded from its own chunk (details-loader.ts)
// the first time a skill is opened.
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../shared/format';
import { loadedSkillDetails, loadSkillDetails, type SkillDetailsComponent } from './details-loader';

export type DetailsState = { phase: 'ready'; Details: SkillDetailsComponent } | { phase: 'loading' } | { phase: 'error'; message: string };

/** The details component, loaded when `wanted` first becomes true. */
export function useSkillDetails(wanted: boolean): DetailsState {
  const [state, setState] = useState<DetailsState>(() => {
    const Details = loadedSkillDetails();
    return Details ? { phase: 'ready', Details } : { phase: 'loading' };
  });
  useEffect(() => {
    if (!wanted || state.phase === 'ready') return;
    let live = true;
    setState({ phase: 'loading' });
    loadSkillDetails().then(
      (Details) => live && setState({ phase: 'ready', Details }),
      (err: unknown) => live && setState({ phase: 'error', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [wanted, state.phase === 'ready']);
  return state;
}
