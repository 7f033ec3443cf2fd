// Export and import of pins, approvals, revoked keys and settings as JSON. An import is first
// checked and shown (ImportPreviewPanel): nothing is written until the user confirms, and an
// approval of an unverified or cross-host skill comes in only with the popup's confirmations.
// Import results list every pin conflict (ImportResultPanel). The requests are in use-transfer.ts.
import { t } from '../../lib/i18n';
import type { OptionsEnv } from './env';
import { ImportPreviewPanel } from './ImportPreviewPanel';
import { ImportResultPanel } from './ImportResultPanel';
import { useTransfer, type Transfer } from './use-transfer';

/** The import text: typed or pasted, or read from a chosen file, with what is wrong with it. */
function ImportInput({ transfer }: { transfer: Transfer }) {
  const { text, inputError } = transfer;
  return (
    <>
      <div class="field">
        <label for="import-file">{t('import_file')}</label>
        <input
          id="import-file"
          type="file"
          accept="application/json,.json"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) void transfer.readFile(file);
          }}
        />
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
          onInput={(e) => transfer.edit(e.currentTarget.value)}
        />
        {inputError && (
          <p class="field-error" id="import-err">
            {inputError}
          </p>
        )}
      </div>
    </>
  );
}

export function TransferSection({ env, onChanged }: { env: OptionsEnv; onChanged: () => void }) {
  const transfer = useTransfer(env, onChanged);
  const { busy, preview, result } = transfer;
  return (
    <div class="transfer">
      <div class="actions">
        <button type="button" class="btn-primary" onClick={() => void transfer.doExport()} disabled={busy} data-action="export">
          {t('export')}
        </button>
      </div>
      <ImportInput transfer={transfer} />
      <div class="actions">
        <button type="button" onClick={() => void transfer.doPreview()} disabled={busy || !transfer.text.trim()} data-action="import">
          {t('import_preview_button')}
        </button>
      </div>
      {preview && (
        <ImportPreviewPanel preview={preview} confirmed={transfer.confirmed} onConfirm={transfer.confirm} busy={busy} onApply={() => void transfer.doImport()} onCancel={transfer.cancelPreview} />
      )}
      {result && <ImportResultPanel result={result} />}
    </div>
  );
}
