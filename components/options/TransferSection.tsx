// Export and import of pins, approvals, revoked keys and settings as JSON. An import is first
// checked and shown (ImportPreviewPanel): nothing is written until the user confirms, and an
// approval of an unverified or cross-host skill comes in only with the popup's confirmations.
// Import results list every pin conflict: a different stored key is never replaced by an import.
import { useState } from 'preact/hooks';
import type { ImportPreview, ImportResult, ImportSkipReason } from '../../lib/messages';
import { t, type MessageKey } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { ImportPreviewPanel, type Confirmed } from './ImportPreviewPanel';

const SKIP_REASON: Record<ImportSkipReason, MessageKey> = {
  'needs-confirmation': 'import_skip_needs_confirmation',
  'pin-conflict': 'import_skip_pin_conflict',
  'pin-mismatch': 'import_skip_pin_mismatch',
  'different-approval': 'import_skip_different_approval',
};

const NONE_CONFIRMED: Confirmed = { unverified: new Set(), crossOrigin: new Set() };

export function TransferSection({ env, onChanged }: { env: OptionsEnv; onChanged: () => void }) {
  const announce = useAnnounce();
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [confirmed, setConfirmed] = useState<Confirmed>(NONE_CONFIRMED);
  /** The text the preview was made from: what is imported, whatever the box holds by then. */
  const [previewed, setPreviewed] = useState('');

  async function doExport() {
    setBusy(true);
    try {
      const { json } = await env.client.exportData();
      env.download('skillpin-trust.json', json);
      announce(t('exported_ok'), 'success');
    } catch (err) {
      announce(t('export_failed', errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  async function readFile(e: Event) {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    try {
      setText(await file.text());
      setPreview(null);
      setInputError(null);
    } catch (err) {
      setInputError(t('import_read_failed', errorText(err)));
    }
  }

  /** Checks the file and shows what it would do; writes nothing. */
  async function doPreview() {
    setResult(null);
    setPreview(null);
    try {
      JSON.parse(text);
    } catch (err) {
      setInputError(t('err_json', errorText(err)));
      return;
    }
    setInputError(null);
    setBusy(true);
    try {
      const res = await env.client.importPreview(text);
      if (!res.ok) {
        setInputError(`${t('import_preview_invalid')} ${res.errors.join('; ')}`);
        return;
      }
      setConfirmed(NONE_CONFIRMED);
      setPreviewed(text);
      setPreview(res);
    } catch (err) {
      announce(t('import_failed_msg', errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  function confirm(kind: keyof Confirmed, id: string, checked: boolean) {
    setConfirmed((c) => {
      const next = new Set(c[kind]);
      if (checked) next.add(id);
      else next.delete(id);
      return { ...c, [kind]: next };
    });
  }

  async function doImport() {
    setBusy(true);
    try {
      const res = await env.client.importData(previewed, {
        confirmUnverified: [...confirmed.unverified],
        confirmCrossOrigin: [...confirmed.crossOrigin],
      });
      setPreview(null);
      setResult(res);
      announce(res.ok ? t('imported_ok') : t('import_failed'), res.ok ? 'success' : 'error');
      onChanged();
    } catch (err) {
      announce(t('import_failed_msg', errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="transfer">
      <div class="actions">
        <button type="button" class="btn-primary" onClick={() => void doExport()} disabled={busy} data-action="export">
          {t('export')}
        </button>
      </div>
      <div class="field">
        <label for="import-file">{t('import_file')}</label>
        <input id="import-file" type="file" accept="application/json,.json" onChange={(e) => void readFile(e)} />
      </div>
      <div class="field">
        <label for="import-text">{t('import_text')}</label>
        <textarea
          id="import-text"
          rows={5}
          spellcheck={false}
          value={text}
          aria-invalid={inputError ? 'true' : undefined}
          aria-describedby={inputError ? 'import-err' : undefined}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setPreview(null);
          }}
        />
        {inputError && (
          <p class="field-error" id="import-err">
            {inputError}
          </p>
        )}
      </div>
      <div class="actions">
        <button type="button" onClick={() => void doPreview()} disabled={busy || !text.trim()} data-action="import">
          {t('import_preview_button')}
        </button>
      </div>
      {preview && (
        <ImportPreviewPanel
          preview={preview}
          confirmed={confirmed}
          onConfirm={confirm}
          busy={busy}
          onApply={() => void doImport()}
          onCancel={() => setPreview(null)}
        />
      )}
      {result && (
        <div class={`result ${result.ok && result.pinConflicts.length === 0 ? 'result-ok' : 'result-warn'}`} data-testid="import-result">
          <p>{t('import_summary', result.pinsAdded, result.pinsUnchanged, result.approvalsAdded)}</p>
          {result.pinConflicts.length > 0 && (
            <>
              <p>
                <strong>{t('import_conflicts', result.pinConflicts.length)}</strong> {t('import_conflicts_note')}
              </p>
              <table class="table" data-testid="import-conflicts">
                <thead>
                  <tr>
                    <th scope="col">{t('col_origin')}</th>
                    <th scope="col">{t('import_stored')}</th>
                    <th scope="col">{t('import_imported')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.pinConflicts.map((c) => (
                    <tr key={c.origin} data-origin={c.origin}>
                      <td>{c.origin}</td>
                      <td>
                        <Fingerprint value={c.stored} />
                      </td>
                      <td>
                        <Fingerprint value={c.imported} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {(result.settingsManaged?.length ?? 0) > 0 && (
            <p data-testid="import-settings-managed">{t('policy_import_managed', (result.settingsManaged ?? []).join(', '))}</p>
          )}
          {(result.pinsRevoked?.length ?? 0) > 0 && <p data-testid="import-revoked-pins">{t('import_revoked_pins', result.pinsRevoked?.length ?? 0)}</p>}
          {(result.approvalsSkipped?.length ?? 0) > 0 && (
            <>
              <p>{t('import_skipped', result.approvalsSkipped?.length ?? 0)}</p>
              <ul data-testid="import-skipped">
                {result.approvalsSkipped?.map((a) => (
                  <li key={`${a.origin} ${a.url}`} data-reason={a.reason}>
                    {a.url} — {t(SKIP_REASON[a.reason])}
                  </li>
                ))}
              </ul>
            </>
          )}
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
      )}
    </div>
  );
}
