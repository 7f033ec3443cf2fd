import type { ActionsEnv } from '../shared/actions';
import type { WatchChanges } from '../shared/state-changes';

/** One of the manifest's commands as the browser has it now. */
export interface Shortcut {
  name: string;
  description: string;
  /** The keys, or empty when none are set. */
  shortcut: string;
}

/** Everything the options page needs from the outside world (the client, the clipboard, an export's download); tests pass fakes. */
export interface OptionsEnv extends ActionsEnv {
  /** Saves text as a file the user downloads. */
  download: (filename: string, text: string) => void;
  /** Asks the browser to let Skillpin read these host patterns (permissions.request, from the click). */
  requestAccess?: (patterns: string[]) => Promise<boolean>;
  /** Asks the browser for the optional nativeMessaging permission (permissions.request, from the click). */
  requestNativeMessaging?: () => Promise<boolean>;
  /**
   * The page that carries the native port for a background started before nativeMessaging was
   * granted (lib/desktop/relay.ts), loaded in a hidden frame when the background needs it; absent:
   * no browser needs one (Firefox) or nothing can load it (unit tests).
   */
  nativeCarrierUrl?: string;
  /** URL of the popup page (per-origin views: `${popupUrl}?origin=…`). */
  popupUrl: string;
  /**
   * Calls `listener` after settings or trust state changed anywhere (this page included);
   * returns the unsubscribe function. Absent where nothing can change behind the page.
   */
  watchChanges?: WatchChanges;
  /** The extension's keyboard shortcuts (commands.getAll) and which browser's words say where to change them. */
  shortcuts?: {
    list: () => Promise<Shortcut[]>;
    browser: 'chrome' | 'firefox';
    /**
     * Opens the browser's page for changing them, where the browser lets an extension do so: Chrome
     * opens chrome://extensions/shortcuts in a tab; Firefox 137 and later opens its shortcut settings
     * (commands.openShortcutSettings), older ones refuse about: pages, and then it is absent.
     */
    open?: () => Promise<void>;
  };
}
