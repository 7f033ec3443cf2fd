// Where the host keeps things on this machine (docs/desktop.md): the per-user data folder,
// the user's home (for the agent folders and the browsers' manifest folders), each overridable
// for tests and for a user who wants them elsewhere.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { BROWSER_PLACES, type BrowserFamily, type DesktopPlatform, REGISTRY_PLACES } from '../lib/desktop/protocol/browser-places';
import { NATIVE_HOST_NAME } from '../lib/desktop/protocol/limits';

export interface Places {
  platform: NodeJS.Platform;
  home: string;
  /** The host's own folder: the mirror, the installed program and what install-host wrote. */
  dataDir: string;
}

export interface PlaceOverrides {
  home?: string;
  dataDir?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** The data folder by platform: XDG data dir on Linux, Application Support on macOS, %LOCALAPPDATA% on Windows. */
export function defaultDataDir(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Skillpin');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Skillpin');
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.local', 'share'), 'skillpin');
}

/** SKILLPIN_HOME and SKILLPIN_DATA_DIR override the home and the data folder; options override both. */
export function places(overrides: PlaceOverrides = {}): Places {
  const env = overrides.env ?? process.env;
  const platform = overrides.platform ?? process.platform;
  const home = overrides.home ?? (env.SKILLPIN_HOME || homedir());
  const dataDir = overrides.dataDir ?? (env.SKILLPIN_DATA_DIR || defaultDataDir(platform, home, env));
  return { platform, home, dataDir };
}

export const mirrorDir = (p: Places): string => join(p.dataDir, 'mirror');
export const installFile = (p: Places): string => join(p.dataDir, 'install.json');

// The browsers' manifest places on this machine, read from the one table (lib/desktop/protocol/browser-places.ts):
// which folders install-host writes (a browser whose own folder is in the home, and the browsers
// Skillpin is tested in even before they ran once), which registry keys on Windows, and which
// browser a manifest path belongs to, for `skillpin doctor`.

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
