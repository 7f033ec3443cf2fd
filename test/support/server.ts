// Tests import the loopback server from here; the implementation is plain JavaScript in
// scripts/lib/server.mjs so that the demo and the benchmarks (run by plain node) share it.
export { startServer, sendBytes, contentTypeFor } from '../../scripts/lib/server.mjs';
export type { LoggedRequest, Route, ServerOptions, TestServer } from '../../scripts/lib/server.mjs';
