import type { Client } from '../shared/client';
import type { WriteClipboard } from '../shared/clipboard';
import type { SaveFile } from '../shared/save-file';
import type { WatchChanges } from '../shared/state-changes';

export interface OptionsEnv {
  client: Client;
  clipboard: WriteClipboard;
  /** Saves text as a file the user downloads. */
  download: (filename: string, text: string) => void;
  /** Saves bytes the user downloads (an export for upload); absent: an anchor with a blob URL. */
  saveFile?: SaveFile;
  /** Asks the browser to let Skillpin read these host patterns (permissions.request, from the click). */
  requestAccess?: (patterns: string[]) => Promise<boolean>;
  /** URL of the popup page (per-origin views: `${popupUrl}?origin=…`). */
  popupUrl: string;
  /**
   * Calls `listener` after settings or trust state changed anywhere (this page included);
   * returns the unsubscribe function. Absent where nothing can change behind the page.
   */
  watchChanges?: WatchChanges;
}
