// What an import will add, shown before anything is written: pins with their fingerprints,
// approvals (with the confirmations the popup would ask for unverified or cross-host skills),
// revoked keys and settings changes. Nothing is imported until the user presses Import.
import type { ImportApprovalPreview, ImportPreview } from '../../lib/messages';
import { t, type MessageKey } from '../../lib/i18n';
import { Fingerprint } from '../shared/Fingerprint';
import { statusLabel } from '../shared/status';
import { tn } from '../../lib/i18n/plural';
import { settingWords } from '../../lib/i18n/settings';

const OUTCOME: Record<string, MessageKey> = {
  add: 'outcome_add',
  unchanged: 'outcome_unchanged',
  conflict: 'outcome_conflict',
  revoked: 'outcome_revoked',
  different: 'outcome_different',
  'pin-conflict': 'outcome_pin_conflict',
  'pin-mismatch': 'outcome_pin_mismatch',
};

const outcomeText = (outcome: string): string => t(OUTCOME[outcome] ?? 'error_unknown');

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export interface Confirmed {
  unverified: ReadonlySet<string>;
  crossOrigin: ReadonlySet<string>;
}

interface Props {
  preview: ImportPreview;
  confirmed: Confirmed;
  onConfirm: (kind: keyof Confirmed, id: string, checked: boolean) => void;
  busy: boolean;
  onApply: () => void;
  onCancel: () => void;
}

function ApprovalRow({ a, confirmed, onConfirm }: { a: ImportApprovalPreview; confirmed: Confirmed; onConfirm: Props['onConfirm'] }) {
  const asks = a.outcome === 'add' && (a.needs.unverified || a.needs.crossOrigin);
  return (
    <tr data-approval-id={a.id} data-outcome={a.outcome}>
      <td>
        <strong>{a.name || a.url}</strong>
        <div class="hint">{a.origin}</div>
      </td>
      <td>{statusLabel(a.statusAtApproval)}</td>
      <td>
        {outcomeText(a.outcome)}
        {asks && a.needs.unverified && (
          <label class="field check">
            <input
              type="checkbox"
              checked={confirmed.unverified.has(a.id)}
              onChange={(e) => onConfirm('unverified', a.id, e.currentTarget.checked)}
              data-confirm="unverified"
            />
            <span>{t('import_confirm_unverified', a.name || a.url)}</span>
          </label>
        )}
        {asks && a.needs.crossOrigin && (
          <label class="field check">
            <input
              type="checkbox"
              checked={confirmed.crossOrigin.has(a.id)}
              onChange={(e) => onConfirm('crossOrigin', a.id, e.currentTarget.checked)}
              data-confirm="cross-origin"
            />
            <span>{t('import_confirm_cross', a.origin, a.name || a.url, hostOf(a.url))}</span>
          </label>
        )}
      </td>
    </tr>
  );
}

/** What the import would add, in words with each count's own plural: "1 approval, 2 keys to pin". */
export function previewCounts(preview: ImportPreview): string[] {
  const pins = preview.pins.filter((p) => p.outcome === 'add').length;
  const approvals = preview.approvals.filter((a) => a.outcome === 'add').length;
  const revocations = preview.revocations.filter((r) => r.outcome === 'add').length;
  const settings = preview.settings?.filter((s) => !s.managed).length ?? 0;
  const parts: string[] = [];
  if (pins > 0) parts.push(tn('import_will_pin', pins));
  if (approvals > 0) parts.push(tn('import_will_approve', approvals));
  if (revocations > 0) parts.push(tn('import_will_revoke', revocations));
  if (settings > 0) parts.push(tn('import_will_set', settings));
  return parts;
}

export function ImportPreviewPanel({ preview, confirmed, onConfirm, busy, onApply, onCancel }: Props) {
  const counts = previewCounts(preview);
  // A file that changes nothing is said so plainly, and there is nothing to import.
  const nothing = counts.length === 0;
  const needsAny = preview.approvals.some((a) => a.outcome === 'add' && (a.needs.unverified || a.needs.crossOrigin));
  return (
    <section class={nothing ? 'result result-info' : 'result result-warn'} aria-labelledby="import-preview-title" data-testid="import-preview" data-nothing={nothing ? 'true' : undefined}>
      <h3 id="import-preview-title">{t('import_preview_title')}</h3>
      <p data-testid="import-preview-counts">{nothing ? t('import_nothing_new') : t('import_will', counts.join(', '))}</p>
      {preview.pins.length > 0 && (
        <table class="table" data-testid="import-preview-pins">
          <caption>{t('import_preview_pins')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col_origin')}</th>
              <th scope="col">{t('col_fingerprint')}</th>
              <th scope="col">{t('col_outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.pins.map((p) => (
              <tr key={p.origin} data-origin={p.origin} data-outcome={p.outcome}>
                <td>{p.origin}</td>
                <td>
                  <Fingerprint value={p.fingerprint} />
                  {p.stored && p.stored !== p.fingerprint && <Fingerprint value={p.stored} label={t('import_stored')} />}
                </td>
                <td>{outcomeText(p.outcome)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.approvals.length > 0 && (
        <table class="table" data-testid="import-preview-approvals">
          <caption>{t('import_preview_approvals')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col_skill')}</th>
              <th scope="col">{t('col_status_then')}</th>
              <th scope="col">{t('col_outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.approvals.map((a) => (
              <ApprovalRow key={a.id} a={a} confirmed={confirmed} onConfirm={onConfirm} />
            ))}
          </tbody>
        </table>
      )}
      {needsAny && <p class="hint">{t('import_needs_note')}</p>}
      {preview.revocations.length > 0 && (
        <table class="table" data-testid="import-preview-revocations">
          <caption>{t('import_preview_revocations')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col_origin')}</th>
              <th scope="col">{t('col_fingerprint')}</th>
              <th scope="col">{t('col_outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.revocations.map((r) => (
              <tr key={`${r.origin} ${r.fingerprint}`} data-origin={r.origin} data-outcome={r.outcome}>
                <td>{r.origin}</td>
                <td>
                  <Fingerprint value={r.fingerprint} />
                </td>
                <td>{outcomeText(r.outcome)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.settings && preview.settings.length > 0 && (
        <table class="table" data-testid="import-preview-settings">
          <caption>{t('import_preview_settings')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col_setting')}</th>
              <th scope="col">{t('col_now')}</th>
              <th scope="col">{t('col_in_file')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.settings.map((s) => (
              <tr key={s.field} data-field={s.field} data-managed={s.managed ? 'true' : undefined}>
                <td>{settingWords(s.field)}</td>
                <td>
                  <code>{s.current}</code>
                </td>
                <td>
                  <code>{s.imported}</code>
                  {s.managed && <span class="hint"> ({t('policy_preview_managed')})</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="actions">
        <button type="button" onClick={onCancel} data-action="import-cancel">
          {t('cancel')}
        </button>
        <button type="button" class="btn-primary" onClick={onApply} disabled={busy || nothing} data-action="import-confirm">
          {t('import_apply')}
        </button>
      </div>
    </section>
  );
}
