// How to install Skillpin's desktop program for this browser (docs/desktop.md, section 5): the command
// with this browser's extension id filled in, what it does, and how to remove everything; and the
// command that updates a program older than the last security fix.
import { HOST_PACKAGE_VERSION } from '../../lib/desktop/protocol/limits';
import { t } from '../../lib/i18n';

export function DesktopInstall({ command, open }: { command: string; open: boolean }) {
  return (
    <details class="desktop-install" open={open} data-testid="desktop-install">
      <summary>{t('desktop_install_title')}</summary>
      <p>{t('desktop_install_how')}</p>
      <pre class="json" data-testid="desktop-install-command">
        <code>{command}</code>
      </pre>
      <p class="hint">{t('desktop_install_after')}</p>
      <p class="hint">{t('desktop_uninstall', HOST_PACKAGE_VERSION)}</p>
    </details>
  );
}

/** The program is older than the last security fix: the command that updates it (lib/background/desktop-status.ts updateOf). */
export function DesktopUpdate({ update, version }: { update: { command: string; minVersion: string }; version: string | null }) {
  return (
    <div class="desktop-update" data-testid="desktop-update">
      <p>{t('desktop_update_how', version ?? '?', update.minVersion)}</p>
      <pre class="json" data-testid="desktop-update-command">
        <code>{update.command}</code>
      </pre>
      <p class="hint">{t('desktop_update_after')}</p>
    </div>
  );
}
