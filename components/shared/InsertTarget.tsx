// The one sentence the popup and the side panel both show about where Insert into chat goes:
// the tab's title and site, or that no chat is open.
import { t } from '../../lib/i18n';
import { display } from '../../lib/render/display';
import type { ChatTab } from './insert-target';

/** Tab titles are the page's words: shown as display strings, shortened. */
const TITLE_MAX = 60;

export function InsertTargetLine({ chat }: { chat: ChatTab | null }) {
  return (
    <p class="hint insert-target" data-testid="insert-target" data-tab={chat ? String(chat.tabId) : ''}>
      {chat ? t('insert_goes_to', display(chat.title, TITLE_MAX), chat.host) : t('insert_no_chat')}
    </p>
  );
}
