// One message at a time per page: what an action did ("Copied", "Approval withdrawn", an error),
// shown in its own row below the page's content (never over it: the pages lay it out as the last
// row of their column, base.css .message-area) and said to screen readers through a live region.
// A message goes away by itself (longer for an error or one with an action such as Undo; not while
// the pointer or the focus is on it), has a close button, and a new message replaces the one shown.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import { errorText } from './format';

export type AnnounceTone = 'info' | 'success' | 'error';

/** A button in the message, such as Undo: pressing it runs `run` and closes the message. */
export interface MessageAction {
  label: string;
  run: () => void;
}

export type Announce = (message: string, tone?: AnnounceTone, options?: { action?: MessageAction }) => void;

/** How long a message stays, in ms, by what it is. */
export const MESSAGE_MS = { info: 6000, success: 6000, error: 15000, action: 12000 } as const;

const AnnounceContext = createContext<Announce>(() => undefined);

export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}

/** A busy flag, and `run`, which holds it while a task runs and says a failure in the words of `failKey`. */
export function useBusy() {
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  async function run(task: () => Promise<void>, failKey: MessageKey) {
    setBusy(true);
    try {
      await task();
    } catch (err) {
      announce(t(failKey, errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

interface Shown {
  message: string;
  tone: AnnounceTone;
  action: MessageAction | null;
  /** Grows with every message, so the same text twice is a new message with a new lifetime. */
  n: number;
}

function MessageBox({ shown, onClose, onHold }: { shown: Shown; onClose: () => void; onHold: (held: boolean) => void }) {
  const { action } = shown;
  return (
    <div
      class={`message message-${shown.tone}`}
      data-tone={shown.tone}
      onMouseEnter={() => onHold(true)}
      onMouseLeave={() => onHold(false)}
      onFocusCapture={() => onHold(true)}
      onBlurCapture={() => onHold(false)}
    >
      <span class="message-text" data-testid="announcer">
        {shown.message}
      </span>
      {action && (
        <button
          type="button"
          class="message-action"
          data-action="message-action"
          onClick={() => {
            onClose();
            action.run();
          }}
        >
          {action.label}
        </button>
      )}
      <button type="button" class="message-close btn-quiet" aria-label={t('message_close')} title={t('message_close')} data-action="message-close" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export function AnnouncerProvider({ children }: { children: ComponentChildren }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [held, setHeld] = useState(false);
  const seq = useRef(0);
  const announce = useCallback<Announce>((message, tone = 'info', options = {}) => {
    seq.current += 1;
    setShown(message ? { message, tone, action: options.action ?? null, n: seq.current } : null);
  }, []);
  const close = useCallback(() => {
    setShown(null);
    setHeld(false);
  }, []);
  // The lifetime starts again with each message, and waits while the user is on the message.
  useEffect(() => {
    if (!shown || held) return;
    // A message with an action stays at least as long as MESSAGE_MS.action.
    const lifetime = shown.action ? Math.max(MESSAGE_MS.action, MESSAGE_MS[shown.tone]) : MESSAGE_MS[shown.tone];
    const timer = setTimeout(() => setShown((s) => (s?.n === shown.n ? null : s)), lifetime);
    return () => clearTimeout(timer);
  }, [shown, held]);
  const box = shown ? <MessageBox key={shown.n} shown={shown} onClose={close} onHold={setHeld} /> : null;
  const isError = shown?.tone === 'error';
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div class={`message-area${shown ? '' : ' message-area-empty'}`}>
        {/* Both live regions are always in the page, so a message put into one is announced. */}
        <div role="status" aria-live="polite" class="message-live">
          {!isError && box}
          {!shown && <span class="message-text" data-testid="announcer" />}
        </div>
        <div role="alert" aria-live="assertive" class="message-live">
          {isError && box}
        </div>
      </div>
    </AnnounceContext.Provider>
  );
}
