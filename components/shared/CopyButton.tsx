// A small "Copy" button beside a value a person may want to compare elsewhere (a checksum, a key
// fingerprint): the exact value goes to the clipboard and the page's message says so.
import { t } from '../../lib/i18n';
import { useAnnounce } from './Announcer';
import type { WriteClipboard } from './clipboard';

export function CopyButton({ value, what, clipboard }: { value: string; what: string; clipboard: WriteClipboard }) {
  const announce = useAnnounce();
  return (
    <button
      type="button"
      class="btn-quiet btn-small"
      aria-label={t('copy_value', what)}
      title={t('copy_value', what)}
      data-action="copy-value"
      onClick={() =>
        void clipboard(value).then(
          (ok) => announce(ok ? t('copied_value', what) : t('copy_clipboard_denied'), ok ? 'success' : 'error'),
          () => announce(t('copy_clipboard_denied'), 'error'),
        )
      }
    >
      {t('copy')}
    </button>
  );
}
