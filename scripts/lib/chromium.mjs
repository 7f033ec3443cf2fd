// @ts-check
// How Skillpin's demo, end-to-end tests and benchmarks start Chromium with the built
// extension: the binary (CHROMIUM_PATH overrides /usr/bin/chromium) and the flags
// that load the extension and keep the browser off every network but loopback.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

/** Flags every Skillpin-driven Chromium gets, with or without the extension. */
export const BROWSER_ARGS = ['--no-first-run', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** @param {string} extensionDir */
export function extensionArgs(extensionDir) {
  return [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...BROWSER_ARGS];
}

/**
 * How a browser a person looks at runs its sandbox. Chromium's sandbox works for a normal user
 * (Debian's chromium uses unprivileged user namespaces) and refuses to start as root without
 * --no-sandbox. So: as a normal user the sandbox stays on and no flag is passed; as root
 * --no-sandbox is needed, and --test-type keeps Chromium from covering the page with its
 * "unsupported command-line flag" bar (the sandbox is still off then, and `note` says so).
 * @param {number | undefined} uid
 * @returns {{ sandbox: boolean, args: string[], note: string | null }}
 */
export function sandboxFor(uid = typeof process.getuid === 'function' ? process.getuid() : undefined) {
  if (uid !== 0) return { sandbox: true, args: [], note: null };
  return { sandbox: false, args: ['--no-sandbox', '--test-type'], note: "running as root: Chromium's sandbox is off (--no-sandbox; it refuses to start as root otherwise)" };
}

/**
 * The flags of a browser a person looks at (the demo, the screenshots): the extension, the
 * network limits of BROWSER_ARGS, and the sandbox as sandboxFor decides.
 * @param {string} extensionDir
 * @param {number | undefined} [uid]
 */
export function viewerArgs(extensionDir, uid) {
  const rest = BROWSER_ARGS.filter((a) => a !== '--no-sandbox');
  return [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...rest, ...sandboxFor(uid).args];
}

/**
 * The id Chromium gives an unpacked extension loaded with --load-extension=`dir`: the
 * sha256 of its absolute path (symlinks resolved), first 32 hex digits spelled a–p.
 * @param {string} dir
 */
export function unpackedExtensionId(dir) {
  const hex = createHash('sha256')
    .update(realpathSync(resolve(dir)))
    .digest('hex')
    .slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

/**
 * Pins extensions to the toolbar of a profile that has not been launched yet (or is closed):
 * Chromium reads `extensions.pinned_extensions` from <profile>/Default/Preferences, so the
 * action and its badge are visible from the first window instead of hidden in the
 * extensions menu. Other preferences already there are kept.
 * @param {string} profileDir
 * @param {string[]} ids
 */
export function pinExtensions(profileDir, ids) {
  const file = join(profileDir, 'Default', 'Preferences');
  /** @type {Record<string, any>} */
  let prefs = {};
  if (existsSync(file)) prefs = JSON.parse(readFileSync(file, 'utf8'));
  const extensions = typeof prefs.extensions === 'object' && prefs.extensions !== null ? prefs.extensions : {};
  const pinned = Array.isArray(extensions.pinned_extensions) ? extensions.pinned_extensions : [];
  prefs.extensions = { ...extensions, pinned_extensions: [...new Set([...pinned, ...ids])] };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(prefs));
}

/**
 * Limits an extension's site access in a profile that has not been launched yet (or is closed), as
 * the extensions page leaves it: `granted` empty is "On click" (no site), a list of host patterns is
 * "On specific sites". Chromium reads `extensions.settings.<id>` from <profile>/Default/Preferences;
 * other preferences already there are kept.
 * @param {string} profileDir
 * @param {string} id
 * @param {string[]} granted
 */
export function withholdSiteAccess(profileDir, id, granted = []) {
  const file = join(profileDir, 'Default', 'Preferences');
  /** @type {Record<string, any>} */
  let prefs = {};
  if (existsSync(file)) prefs = JSON.parse(readFileSync(file, 'utf8'));
  const extensions = typeof prefs.extensions === 'object' && prefs.extensions !== null ? prefs.extensions : {};
  const settings = typeof extensions.settings === 'object' && extensions.settings !== null ? extensions.settings : {};
  settings[id] = {
    ...(settings[id] ?? {}),
    withholding_permissions: true,
    runtime_granted_permissions: { explicit_host: granted, scriptable_host: [] },
  };
  prefs.extensions = { ...extensions, settings };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(prefs));
}
