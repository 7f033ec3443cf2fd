import { useCallback, useState } from 'preact/hooks';
import type { Pin } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { Dialog } from '../shared/Dialog';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatDate } from '../shared/format';
import type { OptionsEnv } from './env';
import { compareText, listPlaceholder, PagedTable, useSortedList, type CountText } from './PagedTable';

const byOrigin = (a: Pin, b: Pin): number => compareText(a.origin, b.origin);

/**
 * A pin matches a filter (normalized: trimmed, lowercase) by a part of its origin or of its
 * fingerprint; spaces are ignored for the fingerprint, so a copied grouped fingerprint matches too.
 */
export function pinMatches(pin: Pin, filter: string): boolean {
  if (pin.origin.toLowerCase().includes(filter)) return true;
  const compact = filter.replace(/\s+/g, '');
  return compact !== '' && pin.fingerprint.toLowerCase().includes(compact);
}

const COUNT: CountText = {
  all: (shown, total) => t('pins_showing', shown, total),
  filtered: (shown, matching, total) => t('pins_showing_filtered', shown, matching, total),
  none: (filter) => t('pins_no_match', filter),
};

export function PinsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const [forgetting, setForgetting] = useState<Pin | null>(null);
  const fetchPins = useCallback(() => env.client.pinsList(), [env]);
  const state = useSortedList(fetchPins, byOrigin, version);

  async function forget(pin: Pin) {
    setForgetting(null);
    try {
      const res = await env.client.pinForget(pin.origin);
      if (res.ok) announce(t('pin_forgotten', pin.origin), 'success');
      else announce(t('action_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('action_failed', errorText(err)), 'error');
    }
    onChanged();
  }

  const placeholder = listPlaceholder(state, t('pins_empty'));
  if (placeholder !== null || state.phase !== 'ready') return placeholder;
  return (
    <>
      <PagedTable
        testId="pins"
        caption={t('pins_title')}
        filterLabel={t('pins_filter')}
        count={COUNT}
        items={state.items}
        matches={pinMatches}
        head={
          <tr>
            <th scope="col">{t('col_origin')}</th>
            <th scope="col">{t('col_fingerprint')}</th>
            <th scope="col">{t('first_seen')}</th>
            <th scope="col">{t('last_seen')}</th>
            <th scope="col">
              <span class="visually-hidden">{t('col_actions')}</span>
            </th>
          </tr>
        }
        row={(p) => (
          <tr key={p.origin} data-origin={p.origin}>
            <td>
              <a href={`${env.popupUrl}?origin=${encodeURIComponent(p.origin)}`} target="_blank" rel="noopener noreferrer">
                {p.origin}
              </a>
            </td>
            <td>
              <Fingerprint value={p.fingerprint} />
            </td>
            <td>{formatDate(p.firstSeen)}</td>
            <td>{formatDate(p.lastSeen)}</td>
            <td>
              <button type="button" class="btn-quiet" onClick={() => setForgetting(p)} aria-label={t('forget_pin_for', p.origin)} data-action="forget">
                {t('forget')}
              </button>
            </td>
          </tr>
        )}
      />
      {forgetting && (
        <Dialog
          title={t('forget_title', forgetting.origin)}
          confirmLabel={t('forget')}
          cancelLabel={t('cancel')}
          danger
          onCancel={() => setForgetting(null)}
          onConfirm={() => void forget(forgetting)}
        >
          <p>{t('forget_body')}</p>
        </Dialog>
      )}
    </>
  );
}
