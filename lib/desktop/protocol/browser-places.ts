// Where each browser looks for a native-messaging manifest, per platform: the one table the desktop
// program writes its manifests by (host/install.ts), `skillpin doctor` checks, and the options page
// names when the browser cannot find the program. Folders are relative to the user's home, with "/"
// between parts; Windows reads registry keys (per user) naming the manifest instead.
import { NATIVE_HOST_NAME } from './limits';

export type BrowserFamily = 'chromium' | 'firefox';

export interface BrowserPlace {
  /** The browser as people call it. */
  browser: string;
  family: BrowserFamily;
  /** The browser's own user-data folder under the home: a place is written when it exists (or `always`). */
  home: string;
  /** The manifest folder under the home. */
  folder: string;
  /** Written even when the browser's folder is not there yet (the browsers Skillpin is tested in). */
  always?: boolean;
}

export type DesktopPlatform = 'linux' | 'darwin' | 'win32';

const chromiumAt = (browser: string, home: string, always = false): BrowserPlace => ({ browser, family: 'chromium', home, folder: `${home}/NativeMessagingHosts`, ...(always ? { always } : {}) });

const LINUX: BrowserPlace[] = [
  chromiumAt('Google Chrome', '.config/google-chrome', true),
  chromiumAt('Google Chrome Beta', '.config/google-chrome-beta'),
  chromiumAt('Google Chrome Dev', '.config/google-chrome-unstable'),
  chromiumAt('Google Chrome Canary', '.config/google-chrome-canary'),
  chromiumAt('Chromium', '.config/chromium', true),
  chromiumAt('Chromium (snap)', 'snap/chromium/common/chromium'),
  chromiumAt('Chromium (Flatpak)', '.var/app/org.chromium.Chromium/config/chromium'),
  chromiumAt('Microsoft Edge', '.config/microsoft-edge'),
  chromiumAt('Microsoft Edge Beta', '.config/microsoft-edge-beta'),
  chromiumAt('Microsoft Edge Dev', '.config/microsoft-edge-dev'),
  chromiumAt('Brave', '.config/BraveSoftware/Brave-Browser'),
  chromiumAt('Vivaldi', '.config/vivaldi'),
  { browser: 'Firefox', family: 'firefox', home: '.mozilla', folder: '.mozilla/native-messaging-hosts', always: true },
  { browser: 'Firefox (snap)', family: 'firefox', home: 'snap/firefox/common/.mozilla', folder: 'snap/firefox/common/.mozilla/native-messaging-hosts' },
  { browser: 'Firefox (Flatpak)', family: 'firefox', home: '.var/app/org.mozilla.firefox/.mozilla', folder: '.var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts' },
];

const SUPPORT = 'Library/Application Support';
const DARWIN: BrowserPlace[] = [
  chromiumAt('Google Chrome', `${SUPPORT}/Google/Chrome`, true),
  chromiumAt('Google Chrome Beta', `${SUPPORT}/Google/Chrome Beta`),
  chromiumAt('Google Chrome Dev', `${SUPPORT}/Google/Chrome Dev`),
  chromiumAt('Google Chrome Canary', `${SUPPORT}/Google/Chrome Canary`),
  chromiumAt('Chromium', `${SUPPORT}/Chromium`, true),
  chromiumAt('Microsoft Edge', `${SUPPORT}/Microsoft Edge`),
  chromiumAt('Brave', `${SUPPORT}/BraveSoftware/Brave-Browser`),
  chromiumAt('Vivaldi', `${SUPPORT}/Vivaldi`),
  { browser: 'Firefox', family: 'firefox', home: `${SUPPORT}/Mozilla`, folder: `${SUPPORT}/Mozilla/NativeMessagingHosts`, always: true },
];

/** The manifest folders of each platform (none on Windows: the registry names the manifest there). */
export const BROWSER_PLACES: Record<DesktopPlatform, readonly BrowserPlace[]> = { linux: LINUX, darwin: DARWIN, win32: [] };

const KEY = (path: string): string => `HKCU\\Software\\${path}\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`;

/** Windows: the per-user registry keys each browser reads (every Chrome channel reads Chrome's). */
export const REGISTRY_PLACES: readonly { browser: string; family: BrowserFamily; key: string }[] = [
  { browser: 'Google Chrome', family: 'chromium', key: KEY('Google\\Chrome') },
  { browser: 'Chromium', family: 'chromium', key: KEY('Chromium') },
  { browser: 'Microsoft Edge', family: 'chromium', key: KEY('Microsoft\\Edge') },
  { browser: 'Brave', family: 'chromium', key: KEY('BraveSoftware\\Brave-Browser') },
  { browser: 'Vivaldi', family: 'chromium', key: KEY('Vivaldi') },
  { browser: 'Firefox', family: 'firefox', key: KEY('Mozilla') },
];

/** The platform as the browser names it (runtime.getPlatformInfo's `os`), as this table does. */
export function desktopPlatform(os: string): DesktopPlatform | null {
  if (os === 'linux' || os === 'openbsd' || os === 'cros') return 'linux';
  if (os === 'mac') return 'darwin';
  if (os === 'win') return 'win32';
  return null;
}

/** Where a browser of this family looks on this platform, as the options page names it (`~/…` or a registry key). */
export function placesShown(platform: DesktopPlatform, family: BrowserFamily): string[] {
  if (platform === 'win32') return REGISTRY_PLACES.filter((p) => p.family === family).map((p) => `${p.key} (${p.browser})`);
  return BROWSER_PLACES[platform].filter((p) => p.family === family).map((p) => `~/${p.folder}/ (${p.browser})`);
}
