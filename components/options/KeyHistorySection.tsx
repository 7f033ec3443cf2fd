// The key history of every site (PRODUCT.md §5): each fingerprint a site has shown, when it was
// first and last seen and what became of it. Any key not yet revoked can be revoked, after a
// confirmation: it is then never accepted again for that site, even after "forget".
import { t, type MessageKey } from '../../lib/i18n';
import type { Response } from '../../lib/messages';
import { pinMatches } from '../../lib/types';
import { Fingerprint } from '../shared/Fingerprint';
import { formatDate } from '../shared/format';
import type { OptionsEnv } from './env';
import { keyColumns, useConfirmedAction } from './KeyTable';
import { OriginLink } from './OriginLink';
import { compareText, listPlaceholder, PagedTable, useSortedList, type CountText } from './PagedTable';

/** One entry as the background answers it: the page knows the message contract, not the store. */
type KeyHistoryEntry = Response<'skillpin:key-history'>[number];

const byOriginThenSeen = (a: KeyHistoryEntry, b: KeyHistoryEntry): number => compareText(a.origin, b.origin) || a.firstSeen - b.firstSeen;

const KEY_STATE = { pinned: 'key_state_pinned', replaced: 'key_state_replaced', offered: 'key_state_offered' } as const satisfies Record<Exclude<KeyHistoryEntry['state'], 'revoked'>, MessageKey>;

export function keyStateText(entry: KeyHistoryEntry): string {
  return entry.state === 'revoked' ? t('key_state_revoked', formatDate(entry.revokedAt ?? entry.lastSeen)) : t(KEY_STATE[entry.state]);
}

const COUNT: CountText = { all: 'history_showing', filtered: 'history_showing_filtered', none: 'history_no_match' };

export function KeyHistorySection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const state = useSortedList(() => env.client.keyHistory(), byOriginThenSeen, [env, version]);
  const revoke = useConfirmedAction<KeyHistoryEntry>({
    send: (entry) => env.client.keyRevoke(entry.origin, entry.fingerprint),
    doneText: (entry) => t('key_revoked_ok', entry.origin),
    dialog: (entry) => ({
      title: t('revoke_key_title', entry.origin),
      confirmLabel: t('revoke_key_confirm'),
      children: (
        <>
          <p>{t('revoke_key_body')}</p>
          <Fingerprint value={entry.fingerprint} />
        </>
      ),
    }),
    onChanged,
  });

  const placeholder = listPlaceholder(state, t('history_empty'));
  if (placeholder !== null || state.phase !== 'ready') return placeholder;
  return (
    <>
      <PagedTable
        testId="key-history"
        caption={t('history_title')}
        filterLabel={t('history_filter')}
        count={COUNT}
        items={state.items}
        // By a part of the origin or of the fingerprint (spaces ignored), as pins are matched.
        matches={pinMatches}
        columns={keyColumns<KeyHistoryEntry>({
          originCell: (e) => <OriginLink origin={e.origin} popupUrl={env.popupUrl} />,
          stateText: keyStateText,
          // A revoked key stays revoked: nothing to do on its row.
          action: (e) => (e.state === 'revoked' ? null : { name: 'revoke-key', label: t('revoke_key'), ariaLabel: t('revoke_key_for', e.origin), onClick: () => revoke.ask(e) }),
        })}
        rowKey={(e) => `${e.origin} ${e.fingerprint}`}
        rowData={(e) => ({ 'data-origin': e.origin, 'data-fingerprint-row': e.fingerprint, 'data-state': e.state })}
      />
      {revoke.dialog}
    </>
  );
}
