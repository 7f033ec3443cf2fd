// Export and import of pins and approvals as JSON. Import results list every pin
// conflict: a different stored key is never replaced by an import.
import { useState } from 'preact/hooks';
import type { ImportResult } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';

export function TransferSection({ env, onChanged }: { env: OptionsEnv; onChanged: () => void }) {
  const announce = useAnnounce();
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);

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
      setInputError(null);
    } catch (err) {
      setInputError(t('import_read_failed', errorText(err)));
    }
  }

  async function doImport() {
    setResult(null);
    try {
      JSON.parse(text);
    } catch (err) {
      setInputError(t('err_json', errorText(err)));
      return;
    }
    setInputError(null);
    setBusy(true);
    try {
      const res = await env.client.importData(text);
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
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {inputError && (
          <p class="field-error" id="import-err">
            {inputError}
          </p>
        )}
      </div>
      <div class="actions">
        <button type="button" onClick={() => void doImport()} disabled={busy || !text.trim()} data-action="import">
          {t('import')}
        </button>
      </div>
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
