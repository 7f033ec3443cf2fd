import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Pin } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { Dialog } from '../shared/Dialog';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatDate } from '../shared/format';
import type { OptionsEnv } from './env';

type State = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; pins: Pin[] };

export function PinsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [forgetting, setForgetting] = useState<Pin | null>(null);

  const load = useCallback(() => {
    env.client
      .pinsList()
      .then((pins) => setState({ phase: 'ready', pins: [...pins].sort((a, b) => a.origin.localeCompare(b.origin)) }))
      .catch((err: unknown) => setState({ phase: 'error', message: errorText(err) }));
  }, [env]);
  useEffect(load, [load, version]);

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
  if (state.pins.length === 0) return <p class="empty">{t('pins_empty')}</p>;
  return (
    <>
      <table class="table" data-testid="pins">
        <caption class="visually-hidden">{t('pins_title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('col_origin')}</th>
            <th scope="col">{t('col_fingerprint')}</th>
            <th scope="col">{t('first_seen')}</th>
            <th scope="col">{t('last_seen')}</th>
            <th scope="col">
              <span class="visually-hidden">{t('col_actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {state.pins.map((p) => (
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
          ))}
        </tbody>
      </table>
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
