// Where the host keeps things on this machine (docs/desktop.md): the per-user data folder,
// the user's home (for the agent folders and the browsers' manifest folders), each overridable
// for tests and for a user who wants them elsewhere.
import { homedir } from 'node:os';
import { join } from 'node:path';

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
