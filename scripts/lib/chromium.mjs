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
export const BROWSER_ARGS = [
  '--no-first-run',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** @param {string} extensionDir */
export function extensionArgs(extensionDir) {
  return [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...BROWSER_ARGS];
}

/**
 * The id Chromium gives an unpacked extension loaded with --load-extension=`dir`: the
 * sha256 of its absolute path (symlinks resolved), first 32 hex digits spelled a–p.
 * @param {string} dir
 */
export function unpackedExtensionId(dir) {
  const hex = createHash('sha256').update(realpathSync(resolve(dir))).digest('hex').slice(0, 32);
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
