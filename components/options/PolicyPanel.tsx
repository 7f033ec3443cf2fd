// What the organisation set (docs/policies.md): the panel above the settings form, and the note
// beside each field the policy manages.
import { t } from '../../lib/i18n';
import type { PolicySummary } from '../../lib/messages';
import { Fingerprint } from '../shared/Fingerprint';

/** Shown above the form when any policy applies. */
export function PolicyPanel({ policy }: { policy: PolicySummary }) {
  return (
    <div class="result policy" role="note" data-testid="policy-panel">
      <h3>{t('policy_title')}</h3>
      <p>{policy.pending ? t('policy_pending') : t('policy_intro')}</p>
      {policy.requireSigned && <p data-testid="policy-require-signed">{t('policy_require_signed')}</p>}
      {policy.pinnedKeys.length > 0 && (
        <>
          <p>{t('policy_pinned_keys')}</p>
          <ul data-testid="policy-pinned-keys">
            {policy.pinnedKeys.map((k) => (
              <li key={k.origin} data-origin={k.origin}>
                {k.origin} <Fingerprint value={k.fingerprint} label={k.origin} />
              </li>
            ))}
          </ul>
        </>
      )}
      {policy.invalid.length > 0 && (
        <p class="field-error" data-testid="policy-invalid">
          {t('policy_invalid', policy.invalid.join('; '))}
        </p>
      )}
    </div>
  );
}

export function ManagedNote({ field }: { field: string }) {
  return (
    <p class="hint managed" id={`set-${field}-managed`} data-testid={`managed-${field}`}>
      {t('policy_managed')}
    </p>
  );
}

/** Whether the policy sets `field`, which the form then shows locked. */
export function isManaged(policy: PolicySummary | null, field: string): boolean {
  return policy?.managedFields.includes(field as PolicySummary['managedFields'][number]) === true;
}
