// What an import did: the counts, every pin conflict with both fingerprints (a different stored
// key is never replaced by an import), settings the policy manages, revoked keys, the approvals
// it skipped and why, and the file's errors.
import type { ImportResult, ImportSkipReason } from '../../lib/messages';
import { t, type MessageKey } from '../../lib/i18n';
import { Fingerprint } from '../shared/Fingerprint';
import { tn } from '../../lib/i18n/plural';
import { settingsWords } from '../../lib/i18n/settings';
import { type Column, DataTable } from './DataTable';

const SKIP_REASON: Record<ImportSkipReason, MessageKey> = {
  'needs-confirmation': 'import_skip_needs_confirmation',
  'pin-conflict': 'import_skip_pin_conflict',
  'pin-mismatch': 'import_skip_pin_mismatch',
  'different-approval': 'import_skip_different_approval',
  'policy-requires-signed': 'import_skip_policy_requires_signed',
};

/** A pin conflict: the site, the key stored for it and the one in the file. */
const conflictColumns = (): Column<ImportResult['pinConflicts'][number]>[] => [
  { header: t('col_origin'), cell: (c) => c.origin },
  { header: t('import_stored'), cell: (c) => <Fingerprint value={c.stored} /> },
  { header: t('import_imported'), cell: (c) => <Fingerprint value={c.imported} /> },
];

function PinConflicts({ conflicts }: { conflicts: ImportResult['pinConflicts'] }) {
  return (
    <>
      <p>
        <strong>{tn('import_conflicts', conflicts.length)}</strong> {t('import_conflicts_note')}
      </p>
      <DataTable testId="import-conflicts" columns={conflictColumns()} items={conflicts} rowKey={(c) => c.origin} rowData={(c) => ({ 'data-origin': c.origin })} />
    </>
  );
}

function SkippedApprovals({ skipped }: { skipped: NonNullable<ImportResult['approvalsSkipped']> }) {
  return (
    <>
      <p>{tn('import_skipped', skipped.length)}</p>
      <ul data-testid="import-skipped">
        {skipped.map((a) => (
          <li key={`${a.origin} ${a.url}`} data-reason={a.reason}>
            {a.url} — {t(SKIP_REASON[a.reason])}
          </li>
        ))}
      </ul>
    </>
  );
}

/** What the import did, in words: what it added and what was already here, keys and approvals alike. */
export function resultSummary(result: ImportResult): string {
  const parts = [
    tn('import_added_pins', result.pinsAdded),
    tn('import_known_pins', result.pinsUnchanged),
    tn('import_added_approvals', result.approvalsAdded),
    tn('import_known_approvals', result.approvalsUnchanged ?? 0),
  ];
  if ((result.revocationsAdded ?? 0) > 0) parts.push(tn('import_added_revocations', result.revocationsAdded ?? 0));
  return t('import_did', parts.join(', '));
}

export function ImportResultPanel({ result }: { result: ImportResult }) {
  return (
    <div class={`result ${result.ok && result.pinConflicts.length === 0 ? 'result-ok' : 'result-warn'}`} data-testid="import-result">
      <p data-testid="import-summary">{resultSummary(result)}</p>
      {result.pinConflicts.length > 0 && <PinConflicts conflicts={result.pinConflicts} />}
      {(result.settingsManaged?.length ?? 0) > 0 && <p data-testid="import-settings-managed">{t('policy_import_managed', settingsWords(result.settingsManaged ?? []))}</p>}
      {(result.pinsRevoked?.length ?? 0) > 0 && <p data-testid="import-revoked-pins">{tn('import_revoked_pins', result.pinsRevoked?.length ?? 0)}</p>}
      {(result.approvalsSkipped?.length ?? 0) > 0 && <SkippedApprovals skipped={result.approvalsSkipped ?? []} />}
      {result.errors.length > 0 && (
        <ul class="diagnostics">
          {result.errors.map((e, i) => (
            <li key={i} class="diag-error">
              {e}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
