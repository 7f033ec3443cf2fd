// Native messaging for the desktop mirror (lib/background/desktop-sync.ts, docs/desktop.md), in
// Chrome's service worker and Firefox's event page. nativeMessaging is an optional permission:
// Chrome binds runtime.connectNative only in a background started after it was granted
// (test/e2e/desktop.spec.ts), so available() asks each time and restart() reloads the extension
// when the user turns the feature on.
import { installCommand } from '@/lib/desktop/install-command';
import { browser } from 'wxt/browser';
import type { NativePlatform } from '@/lib/background/deps';
import type { NativePort } from '@/lib/desktop/link';
import { t } from '@/lib/i18n';

type Runtime = typeof browser.runtime & { connectNative?: (name: string) => unknown; lastError?: { message?: string } };

const runtime = (): Runtime => browser.runtime as Runtime;

export const nativeMessaging: NativePlatform = {
  granted: () => browser.permissions.contains({ permissions: ['nativeMessaging'] }),
  available: () => typeof runtime().connectNative === 'function',
  connectNative(name) {
    const connect = runtime().connectNative;
    if (typeof connect !== 'function') throw new Error(t('err_native_unavailable'));
    return connect.call(runtime(), name) as NativePort;
  },
  // Firefox names the reason on the port, Chrome in runtime.lastError while onDisconnect runs.
  disconnectReason: (port) => (port as { error?: { message?: string } | null }).error?.message ?? runtime().lastError?.message ?? null,
  timers: {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  restart: () => browser.runtime.reload(),
  async openOptions() {
    await browser.tabs.create({ url: browser.runtime.getURL('/options.html#desktop') });
  },
  installCommand: installCommand(import.meta.env.BROWSER === 'chrome' ? 'chrome' : 'firefox', browser.runtime.id),
};
