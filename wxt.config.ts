import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// Chrome and Firefox both build as Manifest V3. Host access is broad because the
// extension probes every origin the user visits (PRODUCT.md §2); requests never
// carry cookies and go only to the visited origin and the artifacts it lists.
export default defineConfig({
  manifestVersion: 3,
  vite: () => ({ plugins: [preact()] }),
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
      ...(browser === 'chrome' ? ['offscreen'] : []),
    ],
    host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_extName__' },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'skillpin@skillpin.dev',
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  }),
});
