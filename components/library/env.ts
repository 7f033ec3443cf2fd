import type { ActionsEnv } from '../shared/actions';
import type { ChatTab } from '../shared/insert-target';
import type { WatchChanges } from '../shared/state-changes';

/** The tab the panel acts on: the active tab of its window (http(s) pages only). */
export interface ActiveTab {
  tabId: number;
  origin: string;
  host: string;
  /** A chat site (built-in or one of the user's). */
  isChat: boolean;
  /** Where Insert into chat goes: this tab when it is a chat, else the chat used last (the popup's answer); null when no chat is open. */
  insert: ChatTab | null;
}

/** Everything the library needs from the outside world; tests pass fakes. */
export interface LibraryEnv extends ActionsEnv {
  /** The tab the panel acts on now, or null when it shows no web page. */
  activeTab: () => Promise<ActiveTab | null>;
  /** Calls its listener when the active tab may have changed (a switch, a navigation); returns the unsubscribe function. */
  watchTabs?: (listener: () => void) => () => void;
  /** Calls its listener after trust state, settings or a report of an approved skill changed anywhere. */
  watchChanges?: WatchChanges;
  /** URL of the options page, for links. */
  optionsUrl: string;
}
