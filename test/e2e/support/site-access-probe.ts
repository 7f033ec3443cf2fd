// The minimal extension of test/e2e/fixtures/site-access-probe/ (Skillpin's host permissions, a
// worker or event page that lists its tabs, a popup that names its tab), copied into `dir` with
// the given API permissions and the manifest each browser loads it from.
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PROBE_GECKO_ID = 'site-access-probe@skillpin.test';
/** The probe's pages live at moz-extension://<this>/ in the Firefox test profiles. */
export const PROBE_UUID = '0b6c1f52-7d1e-4c1a-9a55-3f7e2d9c4b10';

export function probeExtension(dir: string, permissions: string[], browser: 'chrome' | 'firefox'): string {
  cpSync(resolve('test/e2e/fixtures/site-access-probe'), dir, { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'site access probe',
    version: '1',
    permissions,
    host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: 'probe', default_popup: 'popup.html' },
    ...(browser === 'chrome'
      ? { background: { service_worker: 'sw.js' } }
      : {
          background: { scripts: ['sw.js'] },
          // Firefox tests open the page from a loopback page (test/e2e/firefox/support.ts).
          web_accessible_resources: [{ resources: ['popup.html'], matches: ['http://127.0.0.1/*'] }],
          browser_specific_settings: { gecko: { id: PROBE_GECKO_ID, data_collection_permissions: { required: ['none'] } } },
        }),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}
