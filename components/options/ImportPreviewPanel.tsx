// What an import will add, shown before anything is written: pins with their fingerprints,
// approvals (with the confirmations the popup would ask for unverified or cross-host skills),
// revoked keys and settings changes. Nothing is imported until the user presses Import.
import { Origin } from '../shared/Origin';
import type { ImportApprovalPreview, ImportPreview } from '../../lib/messages';
import { t, type MessageKey } from '../../lib/i18n';
import { Fingerprint } from '../shared/Fingerprint';
import { statusLabel } from '../shared/status';
import { hostOf } from '../shared/format';
import { tn, type PluralBase } from '../../lib/i18n/plural';
import { settingWords } from '../../lib/i18n/settings';
import { DataTable, type Column, type DataTableProps } from './DataTable';

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

/** The approvals the user confirmed, by id: one set for each confirmation an approval may need. */
export type Confirmed = Record<keyof ImportApprovalPreview['needs'], ReadonlySet<string>>;

interface Props {
  preview: ImportPreview;
  confirmed: Confirmed;
  onConfirm: (kind: keyof Confirmed, id: string, checked: boolean) => void;
  busy: boolean;
  onApply: () => void;
  onCancel: () => void;
}

/** One confirmation an approval needs before it is imported: a checkbox in the outcome cell. */
function ConfirmBox({ a, kind, confirmed, onConfirm, label }: { a: ImportApprovalPreview; kind: keyof Confirmed; confirmed: Confirmed; onConfirm: Props['onConfirm']; label: string }) {
  return (
    <label class="field check">
      <input
        type="checkbox"
        checked={confirmed[kind].has(a.id)}
        onChange={(e) => onConfirm(kind, a.id, e.currentTarget.checked)}
        data-confirm={kind === 'unverified' ? 'unverified' : 'cross-origin'}
      />
      <span>{label}</span>
    </label>
  );
}

/** An approval's outcome, with the confirmations the popup would ask for an unverified or cross-host skill. */
function ApprovalOutcome({ a, confirmed, onConfirm }: { a: ImportApprovalPreview; confirmed: Confirmed; onConfirm: Props['onConfirm'] }) {
  const asks = a.outcome === 'add' && (a.needs.unverified || a.needs.crossOrigin);
  const box = { a, confirmed, onConfirm };
  return (
    <>
      {outcomeText(a.outcome)}
      {asks && a.needs.unverified && <ConfirmBox {...box} kind="unverified" label={t('import_confirm_unverified', a.name || a.url)} />}
      {asks && a.needs.crossOrigin && <ConfirmBox {...box} kind="crossOrigin" label={t('import_confirm_cross', a.origin, a.name || a.url, hostOf(a.url))} />}
    </>
  );
}

/** A key in the file, to pin or to revoke: its site, its fingerprint (with a pin's stored one where that differs) and the outcome. */
const fileKeyColumns = (): Column<ImportPreview['pins'][number] | ImportPreview['revocations'][number]>[] => [
  { header: t('col_origin'), cell: (k) => k.origin },
  {
    header: t('col_fingerprint'),
    cell: (k) => (
      <>
        <Fingerprint value={k.fingerprint} />
        {'stored' in k && k.stored && k.stored !== k.fingerprint && <Fingerprint value={k.stored} label={t('import_stored')} />}
      </>
    ),
  },
  { header: t('col_outcome'), cell: (k) => outcomeText(k.outcome) },
];

const settingColumns = (): Column<NonNullable<ImportPreview['settings']>[number]>[] => [
  { header: t('col_setting'), cell: (s) => settingWords(s.field) },
  { header: t('col_now'), cell: (s) => <code>{s.current}</code> },
  {
    header: t('col_in_file'),
    cell: (s) => (
      <>
        <code>{s.imported}</code>
        {s.managed && <span class="hint"> ({t('policy_preview_managed')})</span>}
      </>
    ),
  },
];

function approvalColumns(confirmed: Confirmed, onConfirm: Props['onConfirm']): Column<ImportApprovalPreview>[] {
  return [
    {
      header: t('col_skill'),
      cell: (a) => (
        <>
          <strong>{a.name || a.url}</strong>
          <div class="hint">
            <Origin origin={a.origin} />
          </div>
        </>
      ),
    },
    { header: t('col_status_then'), cell: (a) => statusLabel(a.statusAtApproval) },
    { header: t('col_outcome'), cell: (a) => <ApprovalOutcome a={a} confirmed={confirmed} onConfirm={onConfirm} /> },
  ];
}

/** A table of the preview, drawn when the file has rows for it. */
function PreviewTable<T>(props: DataTableProps<T>) {
  return props.items.length > 0 ? <DataTable {...props} /> : null;
}

/** What the import would add, in words with each count's own plural: "1 approval, 2 keys to pin". */
export function previewCounts(preview: ImportPreview): string[] {
  const counts: [PluralBase, number][] = [
    ['import_will_pin', preview.pins.filter((p) => p.outcome === 'add').length],
    ['import_will_approve', preview.approvals.filter((a) => a.outcome === 'add').length],
    ['import_will_revoke', preview.revocations.filter((r) => r.outcome === 'add').length],
    ['import_will_set', preview.settings?.filter((s) => !s.managed).length ?? 0],
  ];
  return counts.filter(([, n]) => n > 0).map(([key, n]) => tn(key, n));
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
      <PreviewTable
        caption={t('import_preview_pins')}
        testId="import-preview-pins"
        columns={fileKeyColumns()}
        items={preview.pins}
        rowKey={(p) => p.origin}
        rowData={(p) => ({ 'data-origin': p.origin, 'data-outcome': p.outcome })}
      />
      <PreviewTable
        caption={t('import_preview_approvals')}
        testId="import-preview-approvals"
        columns={approvalColumns(confirmed, onConfirm)}
        items={preview.approvals}
        rowKey={(a) => a.id}
        rowData={(a) => ({ 'data-approval-id': a.id, 'data-outcome': a.outcome })}
      />
      {needsAny && <p class="hint">{t('import_needs_note')}</p>}
      <PreviewTable
        caption={t('import_preview_revocations')}
        testId="import-preview-revocations"
        columns={fileKeyColumns()}
        items={preview.revocations}
        rowKey={(r) => `${r.origin} ${r.fingerprint}`}
        rowData={(r) => ({ 'data-origin': r.origin, 'data-outcome': r.outcome })}
      />
      <PreviewTable
        caption={t('import_preview_settings')}
        testId="import-preview-settings"
        columns={settingColumns()}
        items={preview.settings ?? []}
        rowKey={(s) => s.field}
        rowData={(s) => ({ 'data-field': s.field, 'data-managed': s.managed ? 'true' : undefined })}
      />
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
