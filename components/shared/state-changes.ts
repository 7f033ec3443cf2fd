// Open pages follow changes made elsewhere (PRODUCT.md §5): the background writes
// STATE_CHANGE_KEY into storage.local after every change of trust state or settings, from any page,
// an import or a policy change (lib/background/state-change.ts), and every open page listens.
import { useEffect, useState } from 'preact/hooks';
import { parseStateChange, STATE_CHANGE_KEY, type StateChangeKind } from '../../lib/messages/state-change';

/** Calls `listener` after settings or trust state changed anywhere; returns the unsubscribe function. */
export type WatchChanges = (listener: (kind: StateChangeKind) => void) => () => void;

type StorageChanges = Record<string, { newValue?: unknown }>;

/** The part of the extension's storage.onChanged the pages use. */
export interface StorageChangeEvent {
  addListener(fn: (changes: StorageChanges, area: string) => void): void;
  removeListener(fn: (changes: StorageChanges, area: string) => void): void;
}

/** The WatchChanges of a page, over the browser's storage.onChanged. */
export function stateChangeWatcher(onChanged: StorageChangeEvent): WatchChanges {
  return (listener) => {
    const fn = (changes: StorageChanges, area: string) => {
      if (area !== 'local' || !(STATE_CHANGE_KEY in changes)) return;
      const change = parseStateChange(changes[STATE_CHANGE_KEY]?.newValue);
      if (change) listener(change.kind);
    };
    onChanged.addListener(fn);
    return () => onChanged.removeListener(fn);
  };
}

/** Grows with every change of trust state or settings made anywhere (`env.watchChanges`); 0 before the first. */
export function useChanges(env: { watchChanges?: WatchChanges | undefined }): number {
  const [version, setVersion] = useState(0);
  useEffect(() => env.watchChanges?.(() => setVersion((v) => v + 1)), [env]);
  return version;
}
