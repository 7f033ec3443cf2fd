// `chrome` exists inside the page and service-worker functions that Playwright serializes
// and runs in the browser; end-to-end tests may use it there and only there.
import type { browser as WxtBrowserApi } from 'wxt/browser';
import type { E2eRecord } from '../../../entrypoints/background/e2e-record';

declare global {
  const chrome: typeof WxtBrowserApi;
  /** The end-to-end build's record of the background's listeners (entrypoints/background/e2e-record.ts). */
  var skillpinTest: E2eRecord | undefined;
}
