import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// Chrome and Firefox both build as Manifest V3. Host access is broad because the
// extension probes every origin the user visits (PRODUCT.md §2); requests never
// carry cookies and go only to the visited origin and the artifacts it lists.
// SKILLPIN_E2E_BUILD=1 makes the builds the end-to-end tests load (into .output/e2e/). In both,
// the background records the listener functions it registers (entrypoints/background/e2e-record.ts),
// so a test can call the very function a context-menu or notification click would, which no test
// can click. For Firefox, the popup, options and library pages are also web-accessible, because WebDriver
// BiDi may only reach moz-extension:// pages from a web page, and the pages may read the
// clipboard (clipboardRead) so a test can see what a copy wrote. Production builds carry none of
// it (a web-accessible popup would let any site frame it); test/e2e/manifests.spec.ts and the
// store package check (scripts/lib/package-check.mjs) check it.
const e2eBuild = process.env.SKILLPIN_E2E_BUILD === '1';

export default defineConfig({
  manifestVersion: 3,
  ...(e2eBuild ? { outDir: '.output/e2e' } : {}),
  // import.meta.env.SKILLPIN_E2E is a constant: production bundles drop what it guards.
  vite: () => ({ plugins: [preact()], define: { 'import.meta.env.SKILLPIN_E2E': JSON.stringify(e2eBuild) } }),
  // `npm run zip`: the store zips and, for Firefox, the sources zip AMO asks for. The sources
  // are what a reviewer needs to rebuild with `npm ci && npm run zip`; the tests (with their
  // corpus) stay out. scripts/check-packages.mjs checks all three.
  zip: { excludeSources: ['test/**', 'test-results/**', 'playwright-report/**'] },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'storage',
      'alarms',
      'contextMenus',
      'notifications',
      'webNavigation',
      'tabs',
      'clipboardWrite',
      'scripting',
      // Redirect hops of the extension's own requests (lib/net/request-guard.ts): Chrome watches
      // them and blocks non-public targets with session rules; Firefox cancels a hop before it is
      // requested and looks up where a name resolves.
      'webRequest',
      ...(browser === 'chrome' ? ['offscreen', 'declarativeNetRequestWithHostAccess'] : ['webRequestBlocking', 'dns']),
      ...(e2eBuild && browser === 'firefox' ? ['clipboardRead'] : []),
    ],
    // Asked for only when the user turns on "Use skills in desktop agents" (docs/desktop.md): the
    // native host keeps the approved skills for the agents on this computer.
    optional_permissions: ['nativeMessaging'],
    host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_extName__' },
    // Keyboard shortcuts, listed in the options page (components/options/ShortcutsSection.tsx): the
    // popup, and the side panel's library. Chrome opens the panel from the `open-library` command's
    // listener (entrypoints/background/library-panel.ts); Firefox opens its sidebar itself.
    commands: {
      _execute_action: { suggested_key: { default: 'Alt+Shift+K' }, description: '__MSG_shortcut_popup__' },
      ...(browser === 'firefox'
        ? { _execute_sidebar_action: { suggested_key: { default: 'Alt+Shift+L' }, description: '__MSG_command_library__' } }
        : { 'open-library': { suggested_key: { default: 'Alt+Shift+L' }, description: '__MSG_command_library__' } }),
    },
    // The policies an organisation may set (docs/policies.md). Firefox has no schema: it hands
    // the enterprise policy's "3rdparty" data to storage.managed as written.
    ...(browser === 'chrome' ? { storage: { managed_schema: 'managed_schema.json' } } : {}),
    ...(e2eBuild && browser === 'firefox' ? { web_accessible_resources: [{ resources: ['popup.html', 'options.html', 'sidepanel.html'], matches: ['http://127.0.0.1/*'] }] } : {}),
    ...(browser === 'firefox'
      ? {
          // Firefox's default extension-page policy adds upgrade-insecure-requests
          // (https://github.com/w3c/webextensions/issues/303, "implemented: firefox"), which turns
          // the probe of an http: origin into an https: request (another origin, so every
          // document was absent); the probe must ask the origin the user visited.
          content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
          browser_specific_settings: {
            gecko: {
              id: 'skillpin@skillpin.dev',
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
            // data_collection_permissions needs Firefox for Android 142; without this the
            // Android minimum defaults to gecko's 140 and the add-on linter warns.
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
});
