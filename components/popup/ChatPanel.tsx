// On a chat site: every approved skill from every origin, ready to insert into
// this tab's composer or to copy; one whose findings are not all confirmed offers Confirm.
import { Loading } from '../shared/Placeholders';
import { Origin } from '../shared/Origin';
import { NAME_MAX, display } from '@/lib/render/display';
import { useList } from '../shared/use-list';
import { t } from '../../lib/i18n';
import { StatusChip } from '../shared/StatusChip';
import { ExportNote } from '../shared/ExportControls';
import { formatDate } from '../shared/format';
import { ConfirmFindingsButton, HandOffButtons, useSkillActions } from '../shared/actions';
import type { PopupEnv } from './env';

/**
 * `chatOrigin`: the chat site the tab showed when the popup opened (insertion refuses a tab that left
 * it). `version` grows with every change of trust state made anywhere: the list is read again.
 */
export function ChatPanel({ env, tabId, chatOrigin, version }: { env: PopupEnv; tabId: number | null; chatOrigin: string; version: number }) {
  const state = useList(() => env.client.approvedList().then((items) => (Array.isArray(items) ? items : [])), [env, version]);
  const actions = useSkillActions(env, chatOrigin, () => undefined, version);

  return (
    <section class="section chat-panel" aria-labelledby="chat-title" data-testid="chat-panel">
      <h2 id="chat-title">{t('chat_title')}</h2>
      {state.phase === 'loading' && <Loading />}
      {state.phase === 'error' && <p class="error">{t('approved_list_error', state.message)}</p>}
      {state.phase === 'ready' && state.items.length === 0 && <p class="empty">{t('chat_empty')}</p>}
      {state.phase === 'ready' && state.items.length > 0 && (
        <ul class="cards">
          {state.items.map((item) => (
            <li class="card" key={`${item.origin} ${item.url}`} data-skill-url={item.url}>
              <div class="card-head">
                <h3 class="card-title">{display(item.name, NAME_MAX)}</h3>
                {item.status && <StatusChip status={item.status} />}
              </div>
              <p class="card-meta">
                <Origin origin={item.origin} /> · {t('approval_on', formatDate(item.approvedAt))}
              </p>
              <ExportNote status={actions.exporter.exportOf(item.origin, item.url)} />
              {item.attention === 'needs-confirmation' && (
                <div class="needs-confirmation" data-testid="needs-confirmation">
                  <p>
                    <strong>{t('needs_confirmation')}</strong> {t('needs_confirmation_note')}
                  </p>
                  <ConfirmFindingsButton busy={actions.busy} name={display(item.name, NAME_MAX)} onClick={() => void actions.confirmAt(item.origin, item.url)} />
                </div>
              )}
              {item.usable ? (
                <div class="actions">
                  <HandOffButtons actions={actions} to={tabId === null ? null : { tabId, origin: chatOrigin }} origin={item.origin} url={item.url} name={item.name} />
                </div>
              ) : (
                <p class="hint">{t('chat_not_usable')}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {actions.dialog}
    </section>
  );
}
