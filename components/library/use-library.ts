// The approved list for the library: its first rows at once, then the rest, so the panel paints
// before a long list has come in; read again after a change anywhere (env.watchChanges: an approval,
// a withdrawal, a key decision, a probe that found a content or key change).
import { useLayoutEffect, useState } from 'preact/hooks';
import type { ApprovedSkillSummary } from '../../lib/messages';
import { LIBRARY_FIRST_ROWS } from '../shared/client';
import { errorText } from '../shared/format';
import { useLive } from '../shared/use-list';
import { useChanges } from '../shared/state-changes';
import type { LibraryEnv } from './env';

export type LibraryState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  /** `complete`: the rest of the list has come in too. */
  | { phase: 'ready'; items: ApprovedSkillSummary[]; complete: boolean };

const asList = (v: unknown): ApprovedSkillSummary[] => (Array.isArray(v) ? (v as ApprovedSkillSummary[]) : []);

export function useLibrary(env: LibraryEnv): { state: LibraryState; version: number } {
  const [state, setState] = useState<LibraryState>({ phase: 'loading' });
  const version = useChanges(env);
  // A layout effect: the first page (asked for as the page's script started, entrypoints/sidepanel)
  // is drawn as soon as it is in, not after the browser's first frame of an empty panel.
  useLive(
    [env, version],
    async (live) => {
      try {
        const first = asList(await env.client.approvedFirstPage());
        if (!live()) return;
        // A reload keeps the rows on screen until the new first page is in.
        const complete = first.length < LIBRARY_FIRST_ROWS;
        setState({ phase: 'ready', items: first, complete });
        if (complete) return;
        const rest = asList(await env.client.approvedPage(LIBRARY_FIRST_ROWS));
        if (live()) setState({ phase: 'ready', items: [...first, ...rest], complete: true });
      } catch (err) {
        if (live()) setState({ phase: 'error', message: errorText(err) });
      }
    },
    useLayoutEffect,
  );
  return { state, version };
}
