// The host program's version (docs/desktop.md): the greeting reports it, `skillpin --version`
// prints it, and the extension refuses to sync with a program older than its MIN_HOST_VERSION
// (lib/desktop/limits.ts). Raised with every security fix of the host, and with every feature
// (1.2.0: the greeting names the agents found in the home).
export const HOST_VERSION = '1.2.0';
