// The keyboard shortcuts Skillpin has (the manifest's commands): what each does and its keys as the
// browser has them now (the user may have changed them), with where to change them.
import { useState } from 'preact/hooks';
import { useList } from '../shared/use-list';
import { t } from '../../lib/i18n';
import { errorText } from '../shared/format';
import type { OptionsEnv, Shortcut } from './env';

/** The description of a command in words (the popup's own command has no description in Chrome's answer). */
function describe(s: Shortcut): string {
  if (s.name === '_execute_action' || s.name === '_execute_browser_action') return t('shortcut_popup');
  return s.description || s.name;
}

/** A button that opens the browser's shortcut page where it may be opened; the way there in words otherwise, or when it refuses. */
function ChangeShortcuts({ open, browser }: { open: (() => Promise<void>) | undefined; browser: 'chrome' | 'firefox' }) {
  const [refused, setRefused] = useState<string | null>(null);
  return (
    <>
      {open && (
        <div class="actions">
          <button type="button" data-action="open-shortcuts" onClick={() => void open().catch((err: unknown) => setRefused(errorText(err)))}>
            {t('shortcuts_open')}
          </button>
        </div>
      )}
      {refused && <p class="error">{t('shortcuts_open_failed', refused)}</p>}
      <p class="hint">{browser === 'firefox' ? t('shortcuts_change_firefox') : t('shortcuts_change_chrome')}</p>
    </>
  );
}

export function ShortcutsSection({ env }: { env: OptionsEnv }) {
  const shortcuts = env.shortcuts;
  const state = useList(shortcuts?.list, [shortcuts]);
  if (!shortcuts) return null;
  return (
    <>
      <p class="hint">{t('shortcuts_intro')}</p>
      {state.phase === 'error' && <p class="error">{t('shortcuts_error', state.message)}</p>}
      {state.phase === 'ready' && (
        <dl class="facts" data-testid="shortcuts">
          {state.items.map((s) => (
            <div key={s.name} data-command={s.name}>
              <dt>{describe(s)}</dt>
              <dd>{s.shortcut ? <kbd>{s.shortcut}</kbd> : t('shortcut_none')}</dd>
            </div>
          ))}
        </dl>
      )}
      <ChangeShortcuts open={shortcuts.open} browser={shortcuts.browser} />
    </>
  );
}
