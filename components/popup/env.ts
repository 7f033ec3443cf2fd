import type { OriginReport } from '../../lib/types';
import type { ActionsEnv } from '../shared/actions';
import type { WatchChanges } from '../shared/state-changes';
import type { ChatTab } from './target';

/** Everything the popup needs from the outside world; tests pass fakes. */
export interface PopupEnv extends ActionsEnv {
  /** A chat tab to insert into (for the given target tab when it is one), or null. */
  findChatTab: () => Promise<ChatTab | null>;
  /**
   * Asks the browser to let Skillpin read these host patterns (permissions.request, from the
   * click); resolves to whether it was granted. Absent where the page cannot ask.
   */
  requestAccess?: (patterns: string[]) => Promise<boolean>;
  /**
   * Calls its listener after settings or trust state changed anywhere (an import in the options page,
   * a withdrawal in another popup); absent where nothing can change behind the page.
   */
  watchChanges?: WatchChanges;
  /** URL of the options page, for links. */
  optionsUrl: string;
  /**
   * Opens the side panel's library beside the page ("All my skills"), called in the click's own
   * turn (the browsers open a panel only in answer to the user); absent where there is none.
   */
  openLibrary?: () => Promise<void>;
  /**
   * The background's answer to `report` for `origin`, fetched before the popup drew its view and
   * handed over once: the view starts from it instead of asking again. Null: the background had no
   * report. Undefined: nothing was fetched early (later calls, another origin, or a failed request).
   */
  readyReport?: (origin: string) => OriginReport | null | undefined;
  /**
   * The origin's last report as the background kept it (lib/background/kept-report.ts), read before
   * its answer came and handed over once when there is no ready report: the view paints it inert,
   * nothing on it can be acted on, and its first `client.report` answer replaces it.
   */
  keptReport?: (origin: string) => OriginReport | undefined;
}
