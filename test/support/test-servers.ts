// Loopback servers for the tests of one vitest file: started through the returned function and
// all closed after each test. Call it once at the top level of the file (it registers afterEach).
import { afterEach } from 'vitest';
import { startServer, type ServerOptions, type TestServer } from './server';

export function serversClosedAfterEach(): (opts: ServerOptions) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    while (servers.length) await servers.pop()?.close();
  });
  return async (opts) => {
    const s = await startServer(opts);
    servers.push(s);
    return s;
  };
}
