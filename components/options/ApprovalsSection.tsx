import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Approval } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { errorText, formatDate } from '../shared/format';
import type { OptionsEnv } from './env';

type State = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; approvals: Approval[] };

export function ApprovalsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const [state, setState] = useState<State>({ phase: 'loading' });

  const load = useCallback(() => {
    env.client
      .approvalsList()
      .then((approvals) =>
        setState({ phase: 'ready', approvals: [...approvals].sort((a, b) => a.origin.localeCompare(b.origin) || a.name.localeCompare(b.name)) }),
      )
      .catch((err: unknown) => setState({ phase: 'error', message: errorText(err) }));
  }, [env]);
  useEffect(load, [load, version]);

  async function revoke(a: Approval) {
    try {
      const res = await env.client.revoke(a.origin, a.url);
      if (res.ok) announce(t('revoked_ok', a.name), 'success');
      else announce(t('revoke_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('revoke_failed', errorText(err)), 'error');
    }
    onChanged();
  }

  if (state.phase === 'loading') return <p class="loading" aria-busy="true">{t('loading')}</p>;
  if (state.phase === 'error') return <p class="error" role="alert">{t('list_error', state.message)}</p>;
  if (state.approvals.length === 0) return <p class="empty">{t('approvals_empty')}</p>;
  return (
    <table class="table" data-testid="approvals">
      <caption class="visually-hidden">{t('approvals_title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('col_skill')}</th>
          <th scope="col">{t('col_origin')}</th>
          <th scope="col">{t('col_approved')}</th>
          <th scope="col">{t('col_status_then')}</th>
          <th scope="col">
            <span class="visually-hidden">{t('col_actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {state.approvals.map((a) => (
          <tr key={`${a.origin} ${a.url}`} data-url={a.url}>
            <td>
              <strong>{a.name}</strong>
              <div class="hint break">{a.url}</div>
              <div class="hint hex">sha256 {a.digestLf}</div>
            </td>
            <td>
              <a href={`${env.popupUrl}?origin=${encodeURIComponent(a.origin)}`} target="_blank" rel="noopener noreferrer">
                {a.origin}
              </a>
            </td>
            <td>{formatDate(a.approvedAt)}</td>
            <td>
              <code>{a.statusAtApproval}</code>
            </td>
            <td>
              <button type="button" class="btn-quiet" onClick={() => void revoke(a)} aria-label={t('revoke_for', a.name, a.origin)} data-action="revoke">
                {t('revoke')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
