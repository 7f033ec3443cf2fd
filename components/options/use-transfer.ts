// The state of the export / import section: an export to a download, the import text (typed or
// read from a file), its preview (nothing written yet), the confirmations the user ticks in it, and
// the result of the import. One busy flag covers export, preview and import: one request at a time.
import { useState } from 'preact/hooks';
import type { ImportPreview, ImportResult } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { useAnnounce, useBusy } from '../shared/Announcer';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import type { Confirmed } from './ImportPreviewPanel';

const NONE_CONFIRMED: Confirmed = { unverified: new Set(), crossOrigin: new Set() };

export type Transfer = ReturnType<typeof useTransfer>;

export function useTransfer(env: OptionsEnv, onChanged: () => void) {
  const announce = useAnnounce();
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const { busy, run: whileBusy } = useBusy();
  /** What is wrong with the text (not JSON, unreadable file, refused by the background), or null. */
  const [inputError, setInputError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [confirmed, setConfirmed] = useState<Confirmed>(NONE_CONFIRMED);
  /** The text the preview was made from: what is imported, whatever the box holds by then. */
  const [previewed, setPreviewed] = useState('');

  const doExport = () =>
    whileBusy(async () => {
      const { json } = await env.client.backupData();
      env.download('skillpin-trust.json', json);
      announce(t('exported_ok'), 'success');
    }, 'export_failed');

  async function readFile(file: File) {
    try {
      setText(await file.text());
      setPreview(null);
      setInputError(null);
    } catch (err) {
      setInputError(t('import_read_failed', errorText(err)));
    }
  }

  /** Checks the text and shows what it would do; writes nothing. */
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
    await whileBusy(async () => {
      const res = await env.client.importPreview(text);
      if (!res.ok) {
        setInputError(`${t('import_preview_invalid')} ${res.errors.join('; ')}`);
        return;
      }
      setConfirmed(NONE_CONFIRMED);
      setPreviewed(text);
      setPreview(res);
    }, 'import_failed_msg');
  }

  function confirm(kind: keyof Confirmed, id: string, checked: boolean) {
    setConfirmed((c) => {
      const next = new Set(c[kind]);
      if (checked) next.add(id);
      else next.delete(id);
      return { ...c, [kind]: next };
    });
  }

  /** Imports the text that was previewed, with the confirmations given. */
  const doImport = () =>
    whileBusy(async () => {
      const res = await env.client.importData(previewed, {
        confirmUnverified: [...confirmed.unverified],
        confirmCrossOrigin: [...confirmed.crossOrigin],
      });
      setPreview(null);
      setResult(res);
      announce(res.ok ? t('imported_ok') : t('import_failed'), res.ok ? 'success' : 'error');
      onChanged();
    }, 'import_failed_msg');

  /** The text box changed: an open preview no longer describes it. */
  const edit = (next: string) => {
    setText(next);
    setPreview(null);
  };
  const cancelPreview = () => setPreview(null);
  return { text, busy, inputError, preview, confirmed, result, doExport, edit, readFile, doPreview, confirm, doImport, cancelPreview };
}
