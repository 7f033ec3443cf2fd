// The command the options page shows to install (or update) the desktop program for this browser
// (docs/desktop.md, section 5.3): the package of exactly the version this extension was built with,
// never "latest", with this browser's extension id for Chrome.
import { HOST_PACKAGE_VERSION } from './protocol/limits';

export function installCommand(browser: 'chrome' | 'firefox', extensionId: string): string {
  const base = `npx skillpin@${HOST_PACKAGE_VERSION} install-host`;
  return browser === 'chrome' ? `${base} --chrome-id ${extensionId}` : base;
}
