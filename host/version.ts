// The host program's version (docs/desktop.md): the greeting reports it, `skillpin --version`
// prints it, the package scripts/pack-host.mjs builds carries it, and the extension refuses to sync
// with a program older than its MIN_HOST_VERSION (lib/desktop/protocol/limits.ts). Raised with every
// security fix of the host, and with every feature (1.2.0: the greeting names the agents found in
// the home; prompts and tools over MCP; doctor; the package). One number, kept in lib/ so the
// extension names the same version in the command it shows.
export { HOST_PACKAGE_VERSION as HOST_VERSION } from '../lib/desktop/protocol/limits';
