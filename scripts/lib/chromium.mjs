// @ts-check
// How Skillpin's demo, end-to-end tests and benchmarks start Chromium with the built
// extension: the binary (CHROMIUM_PATH overrides /usr/bin/chromium) and the flags
// that load the extension and keep the browser off every network but loopback.

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
