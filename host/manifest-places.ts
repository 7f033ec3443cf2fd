// The browsers' manifest places on this machine, read from the one table (lib/desktop/protocol/browser-places.ts):
// which folders install-host writes (a browser whose own folder is in the home, and the browsers
// Skillpin is tested in even before they ran once), which registry keys on Windows, and which
// browser a manifest path belongs to, for `skillpin doctor`.
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BROWSER_PLACES, type BrowserFamily, type DesktopPlatform, REGISTRY_PLACES } from '../lib/desktop/protocol/browser-places';
import { NATIVE_HOST_NAME } from '../lib/desktop/protocol/limits';
import type { Places } from './places';

export const MANIFEST_FILE = `${NATIVE_HOST_NAME}.json`;

export interface ManifestPlace {
  browser: string;
  family: BrowserFamily;
  /** The manifest folder. */
  dir: string;
  /** The browser's own folder is in the home. */
  found: boolean;
  /** install-host writes it: found, or one of the places written even before the browser ran. */
  written: boolean;
}

/** The table's platform for the host's: every platform but macOS and Windows reads the Linux folders. */
export function tablePlatform(platform: NodeJS.Platform): DesktopPlatform {
  return platform === 'darwin' || platform === 'win32' ? platform : 'linux';
}

const under = (home: string, folder: string): string => join(home, ...folder.split('/'));

/** Every manifest folder of the table for this platform (none on Windows), in the table's order. */
export function manifestPlaces(p: Places): ManifestPlace[] {
  return BROWSER_PLACES[tablePlatform(p.platform)].map((place) => {
    const found = existsSync(under(p.home, place.home));
    return { browser: place.browser, family: place.family, dir: under(p.home, place.folder), found, written: found || place.always === true };
  });
}

/** The registry keys of this family (Windows), each with its browser. */
export function registryPlaces(family: BrowserFamily): { browser: string; key: string }[] {
  return REGISTRY_PLACES.filter((r) => r.family === family).map(({ browser, key }) => ({ browser, key }));
}

/** How a manifest path is named when it is not in the table: a --chrome-profile folder, or Windows' own copy. */
export function manifestName(p: Places, path: string): { browser: string; family: BrowserFamily } {
  const place = manifestPlaces(p).find((m) => join(m.dir, MANIFEST_FILE) === path);
  if (place !== undefined) return { browser: place.browser, family: place.family };
  const windows = /manifests[\\/](chrome|firefox)\.json$/.exec(path);
  if (windows !== null) {
    const family = windows[1] === 'firefox' ? 'firefox' : 'chromium';
    const browsers = registryPlaces(family).map((r) => r.browser);
    return { browser: `${browsers.join(', ')} (through the registry)`, family };
  }
  if (basename(dirname(path)) === 'NativeMessagingHosts') return { browser: `Chrome profile ${dirname(dirname(path))}`, family: 'chromium' };
  return { browser: /mozilla|firefox/i.test(path) ? 'Firefox' : 'Chromium-family browser', family: /mozilla|firefox/i.test(path) ? 'firefox' : 'chromium' };
}
