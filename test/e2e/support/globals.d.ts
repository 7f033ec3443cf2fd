// `chrome` exists inside the page and service-worker functions that Playwright serializes
// and runs in the browser; end-to-end tests may use it there and only there.
import type { browser as WxtBrowserApi } from 'wxt/browser';

declare global {
  const chrome: typeof WxtBrowserApi;
}
