// Loaded by the options page in a hidden frame after the user granted nativeMessaging: Chrome gives
// this page connectNative (it was loaded after the grant) while the running background has none, so
// it carries the native port for the background until the background starts again with its own
// (lib/desktop/relay.ts). It tells the page around it when it is ready, so the page checks again.
import { browser } from 'wxt/browser';
import type { NativePort } from '@/lib/desktop/link';
import { carryNative, RELAY_PORT, RELAY_READY } from '@/lib/desktop/relay';

type Runtime = typeof browser.runtime & { connectNative?: (name: string) => NativePort; lastError?: { message?: string } };
const runtime = browser.runtime as Runtime;

if (typeof runtime.connectNative === 'function') {
  const worker = browser.runtime.connect({ name: RELAY_PORT });
  carryNative(worker, {
    connectNative: (name) => (runtime.connectNative as (n: string) => NativePort).call(runtime, name),
    disconnectReason: (port) => (port as { error?: { message?: string } | null }).error?.message ?? runtime.lastError?.message ?? null,
  });
  // The background answers `ready` once it has taken this page as its carrier.
  worker.onMessage.addListener((m: unknown) => {
    if (typeof m === 'object' && m !== null && (m as { kind?: unknown }).kind === 'accepted') window.parent.postMessage(RELAY_READY, location.origin);
  });
}
