// Native messaging for the desktop mirror (lib/background/desktop-sync.ts, docs/desktop.md), in
// Chrome's service worker and Firefox's event page. nativeMessaging is an optional permission:
// Chrome binds runtime.connectNative only in a background started after it was granted
// (test/e2e/desktop.spec.ts). Until this worker has its own, a page of ours loaded after the grant
// carries the native port for it (lib/desktop/relay.ts): `acceptCarrier` takes that page's runtime
// port, from the extension's own pages only.
import { installCommand } from '@/lib/desktop/install-command';
import { browser } from 'wxt/browser';
import type { NativePlatform } from '@/lib/background/deps';
import { isExtensionPage, type SenderLike } from '@/lib/background/sender';
import type { NativePort } from '@/lib/desktop/link';
import { Carrier, RELAY_PORT, type RuntimePortLike } from '@/lib/desktop/relay';
import { desktopPlatform, placesShown } from '@/lib/desktop/protocol/browser-places';
import { t } from '@/lib/i18n';

type Runtime = typeof browser.runtime & { connectNative?: (name: string) => unknown; lastError?: { message?: string } };

const runtime = (): Runtime => browser.runtime as Runtime;
const own = (): boolean => typeof runtime().connectNative === 'function';

/** The pages carrying a native port for this worker, newest last. */
const carriers: Carrier[] = [];
const carried = new WeakMap<NativePort, { reason: string | null }>();
const watchers: (() => void)[] = [];
const changed = (): void => {
  for (const w of watchers) w();
};
const usable = (): Carrier | undefined => carriers.filter((c) => c.ready && !c.gone).at(-1);

/** runtime.onConnect: a page of ours offers to carry the native port (ignored from anywhere else). */
export function acceptCarrier(port: RuntimePortLike & { name: string; sender?: SenderLike }): void {
  if (port.name !== RELAY_PORT) return;
  if (own() || !isExtensionPage(port.sender ?? {}, browser.runtime.id, browser.runtime.getURL('/'))) {
    port.disconnect();
    return;
  }
  const carrier = new Carrier(port, t('desktop_carrier_gone'), changed);
  carriers.push(carrier);
  port.onDisconnect.addListener(() => {
    carriers.splice(carriers.indexOf(carrier), 1);
    changed();
  });
}

export const nativeMessaging: NativePlatform = {
  granted: () => browser.permissions.contains({ permissions: ['nativeMessaging'] }),
  available: () => own() || usable() !== undefined,
  connectNative(name) {
    if (own()) return runtime().connectNative?.call(runtime(), name) as NativePort;
    const carrier = usable();
    if (carrier === undefined) throw new Error(t('err_native_unavailable'));
    const port = carrier.open(name);
    carried.set(port, port);
    return port;
  },
  // Firefox names the reason on the port, Chrome in runtime.lastError while onDisconnect runs; a
  // carried port, as the carrier page's browser said it.
  disconnectReason(port) {
    const relayed = carried.get(port);
    if (relayed !== undefined) return relayed.reason;
    return (port as { error?: { message?: string } | null }).error?.message ?? runtime().lastError?.message ?? null;
  },
  timers: {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  onAvailable: (listener) => void watchers.push(listener),
  async manifestPlaces() {
    const platform = desktopPlatform((await browser.runtime.getPlatformInfo()).os);
    return platform === null ? [] : placesShown(platform, import.meta.env.BROWSER === 'firefox' ? 'firefox' : 'chromium');
  },
  installCommand: installCommand(import.meta.env.BROWSER === 'chrome' ? 'chrome' : 'firefox', browser.runtime.id),
};
