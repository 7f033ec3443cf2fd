// The gear in a page's header that opens Skillpin's settings in a tab of its own (popup, library).
import { t } from '../../lib/i18n';

export function SettingsLink({ href }: { href: string }) {
  return (
    <a class="btn btn-quiet" href={href} target="_blank" rel="noopener noreferrer" aria-label={t('open_settings')} title={t('open_settings')}>
      <span aria-hidden="true">⚙</span>
    </a>
  );
}
