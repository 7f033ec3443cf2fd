// One polite live region per page: status messages ("Copied", "Approved", errors)
// are announced to screen readers and shown visibly.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useState } from 'preact/hooks';

export type AnnounceTone = 'info' | 'success' | 'error';
export type Announce = (message: string, tone?: AnnounceTone) => void;

const AnnounceContext = createContext<Announce>(() => undefined);

export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}

export function AnnouncerProvider({ children }: { children: ComponentChildren }) {
  const [state, setState] = useState<{ message: string; tone: AnnounceTone; n: number }>({ message: '', tone: 'info', n: 0 });
  const announce = useCallback<Announce>((message, tone = 'info') => {
    setState((s) => ({ message, tone, n: s.n + 1 }));
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div
        class={`toast toast-${state.tone}${state.message ? '' : ' toast-empty'}`}
        role={state.tone === 'error' ? 'alert' : 'status'}
        aria-live={state.tone === 'error' ? 'assertive' : 'polite'}
        data-testid="announcer"
      >
        {state.message}
      </div>
    </AnnounceContext.Provider>
  );
}
