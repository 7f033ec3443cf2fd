import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Pin } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { Dialog } from '../shared/Dialog';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatDate } from '../shared/format';
import type { OptionsEnv } from './env';
import { PAGE_SIZE, PagedTableView, type CountText } from './PagedTable';
import { pinMatches } from '../../lib/lists/pins-page';

export { pinMatches };

type PinsState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  | { phase: 'ready'; items: Pin[]; matching: number; total: number };

/**
 * The pins a page at a time from the background, which sorts and filters them
 * (lib/lists/pins-page.ts): the first page again whenever `version` or the filter changes,
 * the next one on "Show more". The rows drawn stay while a new page is on its way, so the
 * filter box keeps its focus as the user types.
 */
function usePinPages(env: OptionsEnv, version: number, filter: string): { state: PinsState; more: () => void } {
  const [state, setState] = useState<PinsState>({ phase: 'loading' });
  const seq = useRef(0);
  const shown = state.phase === 'ready' ? state.items : [];
  useEffect(() => {
    const n = ++seq.current;
    (filter === '' ? env.client.pinsFirstPage() : env.client.pinsPage(0, PAGE_SIZE, filter)).then(
      (page) => n === seq.current && setState({ phase: 'ready', items: page.items, matching: page.matching, total: page.total }),
      (err: unknown) => n === seq.current && setState({ phase: 'error', message: errorText(err) }),
    );
  }, [env, version, filter]);
  const more = useCallback(() => {
    const n = ++seq.current;
    const from = shown.length;
    env.client.pinsPage(from, PAGE_SIZE, filter).then(
      (page) => n === seq.current && setState({ phase: 'ready', items: [...shown.slice(0, page.offset), ...page.items], matching: page.matching, total: page.total }),
      (err: unknown) => n === seq.current && setState({ phase: 'error', message: errorText(err) }),
    );
  }, [env, filter, shown]);
  return { state, more };
}

const COUNT: CountText = {
  all: (shown, total) => t('pins_showing', shown, total),
  filtered: (shown, matching, total) => t('pins_showing_filtered', shown, matching, total),
  none: (filter) => t('pins_no_match', filter),
};

export function PinsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const [forgetting, setForgetting] = useState<Pin | null>(null);
  const [filter, setFilter] = useState('');
  const { state, more } = usePinPages(env, version, filter);

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

  if (state.phase === 'loading') return <p class="loading" aria-busy="true">{t('loading')}</p>;
  if (state.phase === 'error') return <p class="error" role="alert">{t('list_error', state.message)}</p>;
  if (state.total === 0) return <p class="empty">{t('pins_empty')}</p>;
  return (
    <>
      <PagedTableView
        testId="pins"
        caption={t('pins_title')}
        filterLabel={t('pins_filter')}
        count={COUNT}
        shown={state.items}
        matching={state.matching}
        total={state.total}
        filter={filter}
        onFilter={setFilter}
        onMore={more}
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
