import type { Client } from '../shared/client';
import type { WriteClipboard } from '../shared/clipboard';
import type { ChatTab } from './target';

/** Everything the popup needs from the outside world; tests pass fakes. */
export interface PopupEnv {
  client: Client;
  clipboard: WriteClipboard;
  /** A chat tab to insert into (for the given target tab when it is one), or null. */
  findChatTab: () => Promise<ChatTab | null>;
  /** URL of the options page, for links. */
  optionsUrl: string;
}
