import { render } from 'preact';
import { browser } from 'wxt/browser';
import { createClient } from '../../components/shared/client';
import { writeClipboard } from '../../components/shared/clipboard';
import { saveFile } from '../../components/shared/save-file';
import { stateChangeWatcher } from '../../components/shared/state-changes';
import { Options } from '../../components/options/Options';
import { withEarlyAnswers } from '../../components/shared/early';
import type { OptionsEnv } from '../../components/options/env';
import { t } from '../../lib/i18n';
import '../../components/shared/base.css';
import '../../components/options/options.css';

const env: OptionsEnv = {
  // The first page of pins is asked for now, while the page draws, not after its first paint; the
  // other lists and the settings once it is in, so that the worker answers the pins first.
  client: withEarlyAnswers(
    createClient((msg) => browser.runtime.sendMessage(msg)),
    ['pinsFirstPage'],
    ['settingsGet', 'approvalsList', 'reportsList'],
  ),
  clipboard: writeClipboard,
  download: (filename, text) => saveFile(filename, new TextEncoder().encode(text), 'application/json'),
  requestAccess: (patterns) => browser.permissions.request({ origins: patterns }),
  requestNativeMessaging: () => browser.permissions.request({ permissions: ['nativeMessaging'] }),
  ...(import.meta.env.BROWSER === 'firefox' ? {} : { nativeCarrierUrl: browser.runtime.getURL('/native-relay.html') }),
  popupUrl: '/popup.html',
  // The background writes STATE_CHANGE_KEY after every change of settings or trust state.
  watchChanges: stateChangeWatcher(browser.storage.onChanged),
  shortcuts: {
    list: async () => (await browser.commands.getAll()).map((c) => ({ name: c.name ?? '', description: c.description ?? '', shortcut: c.shortcut ?? '' })),
    browser: import.meta.env.BROWSER === 'firefox' ? 'firefox' : 'chrome',
    open: shortcutPage(),
  },
};

/** How this browser lets an extension page open its shortcut settings, if it does (OptionsEnv.shortcuts.open). */
function shortcutPage(): (() => Promise<void>) | undefined {
  if (import.meta.env.BROWSER !== 'firefox') return async () => void (await browser.tabs.create({ url: 'chrome://extensions/shortcuts' }));
  const commands = browser.commands as unknown as { openShortcutSettings?: () => Promise<void> };
  return typeof commands.openShortcutSettings === 'function' ? () => (commands.openShortcutSettings as () => Promise<void>)() : undefined;
}

const initialOrigin = new URLSearchParams(location.search).get('origin');
const root = document.getElementById('app');
// The page speaks the language of the catalogue the browser picked (index.html has the English fallback).
document.documentElement.lang = t('ui_lang');
document.title = t('options_title');
if (root) render(<Options env={env} initialOrigin={initialOrigin} />, root);
