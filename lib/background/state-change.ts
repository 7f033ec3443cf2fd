// Open extension pages follow changes made elsewhere through STATE_CHANGE_KEY (lib/messages/).
// The sequence makes every write a new value, so storage.onChanged fires for each.
import { STATE_CHANGE_KEY, type StateChange, type StateChangeKind } from '../messages';
import type { Clock } from '../types';

export function stateAnnouncer(setLocal: (key: string, value: unknown) => Promise<void>, clock: Clock): (kind: StateChangeKind) => Promise<void> {
  let seq = 0;
  return async (kind) => {
    const change: StateChange = { kind, seq: ++seq, at: clock.now() };
    // On a failure pages show what they loaded until reloaded; the change itself is stored.
    await setLocal(STATE_CHANGE_KEY, change).catch(() => undefined);
  };
}

/**
 * When trust state or settings last changed through this worker (its start, at first): marked by
 * whoever changes them (the message gate, a policy change), read by whoever asks whether a report
 * is still current. Only mark() moves it.
 */
export interface ChangeMarker {
  /** Trust state or settings change now. */
  mark(): void;
  /** The time of the last change. */
  at(): number;
}

export function changeMarker(clock: Clock): ChangeMarker {
  let last = clock.now();
  return {
    mark() {
      last = clock.now();
    },
    at: () => last,
  };
}
