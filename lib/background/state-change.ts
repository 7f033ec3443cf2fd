// Open extension pages follow changes made elsewhere through STATE_CHANGE_KEY (lib/messages.ts).
// The sequence makes every write a new value, so storage.onChanged fires for each.
import { STATE_CHANGE_KEY, type StateChange, type StateChangeKind } from '../messages';
import type { Clock } from '../types';

export function stateAnnouncer(setLocal: (key: string, value: unknown) => Promise<void>, clock: Clock): (kind: StateChangeKind) => Promise<void> {
  let seq = 0;
  return async (kind) => {
    const change: StateChange = { kind, seq: ++seq, at: clock.now() };
    try {
      await setLocal(STATE_CHANGE_KEY, change);
    } catch {
      // Pages then show what they loaded until reloaded; the change itself is stored.
    }
  };
}
