// The key history of every site (PRODUCT.md §5): each fingerprint a site has shown, when it was
// first and last seen and what became of it. Any key not yet revoked can be revoked, after a
// confirmation: it is then never accepted again for that site, even after "forget".
import { useCallback, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { Response } from '../../lib/messages';
import { useAnnounce } from '../shared/Announcer';
import { Dialog } from '../shared/Dialog';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatDate } from '../shared/format';
import type { OptionsEnv } from './env';
import { compareText, listPlaceholder, PagedTable, useSortedList, type CountText } from './PagedTable';

/** One entry as the background answers it: the page knows the message contract, not the store. */
type KeyHistoryEntry = Response<'skillpin:key-history'>[number];

const byOriginThenSeen = (a: KeyHistoryEntry, b: KeyHistoryEntry): number => compareText(a.origin, b.origin) || a.firstSeen - b.firstSeen;

/** Matches by a part of the origin or of the fingerprint (spaces ignored, as for pins). */
export function historyMatches(entry: KeyHistoryEntry, filter: string): boolean {
  if (entry.origin.toLowerCase().includes(filter)) return true;
  const compact = filter.replace(/\s+/g, '');
  return compact !== '' && entry.fingerprint.toLowerCase().includes(compact);
}

export function keyStateText(entry: KeyHistoryEntry): string {
  switch (entry.state) {
    case 'pinned':
      return t('key_state_pinned');
    case 'replaced':
      return t('key_state_replaced');
    case 'offered':
      return t('key_state_offered');
    case 'revoked':
      return t('key_state_revoked', formatDate(entry.revokedAt ?? entry.lastSeen));
  }
}

const COUNT: CountText = {
  all: (shown, total) => t('history_showing', shown, total),
  filtered: (shown, matching, total) => t('history_showing_filtered', shown, matching, total),
  none: (filter) => t('history_no_match', filter),
};

export function KeyHistorySection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const [revoking, setRevoking] = useState<KeyHistoryEntry | null>(null);
  const fetchHistory = useCallback(() => env.client.keyHistory(), [env]);
  const state = useSortedList(fetchHistory, byOriginThenSeen, version);

  async function revoke(entry: KeyHistoryEntry) {
    setRevoking(null);
    try {
      const res = await env.client.keyRevoke(entry.origin, entry.fingerprint);
      if (res.ok) announce(t('key_revoked_ok', entry.origin), 'success');
      else announce(t('action_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('action_failed', errorText(err)), 'error');
    }
    onChanged();
  }

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
        matches={historyMatches}
        head={
          <tr>
            <th scope="col">{t('col_origin')}</th>
            <th scope="col">{t('col_fingerprint')}</th>
            <th scope="col">{t('col_state')}</th>
            <th scope="col">{t('first_seen')}</th>
            <th scope="col">{t('last_seen')}</th>
            <th scope="col">
              <span class="visually-hidden">{t('col_actions')}</span>
            </th>
          </tr>
        }
        row={(e) => (
          <tr key={`${e.origin} ${e.fingerprint}`} data-origin={e.origin} data-fingerprint-row={e.fingerprint} data-state={e.state}>
            <td>{e.origin}</td>
            <td>
              <Fingerprint value={e.fingerprint} />
            </td>
            <td data-testid="key-state">{keyStateText(e)}</td>
            <td>{formatDate(e.firstSeen)}</td>
            <td>{formatDate(e.lastSeen)}</td>
            <td>
              {e.state !== 'revoked' && (
                <button type="button" class="btn-quiet" onClick={() => setRevoking(e)} aria-label={t('revoke_key_for', e.origin)} data-action="revoke-key">
                  {t('revoke_key')}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {revoking && (
        <Dialog
          title={t('revoke_key_title', revoking.origin)}
          confirmLabel={t('revoke_key_confirm')}
          cancelLabel={t('cancel')}
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        >
          <p>{t('revoke_key_body')}</p>
          <Fingerprint value={revoking.fingerprint} />
        </Dialog>
      )}
    </>
  );
}
