// A publisher site written to a temporary folder (scripts/lib/publisher-site.mjs, the demo's
// generator) and served as an origin root by the loopback server. Tests may rewrite the folder
// between probes; close() stops the server and removes the folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePublisherSite, type SiteSpec } from '../../scripts/lib/publisher-site.mjs';
import { startServer, type TestServer } from './server';

export interface ServedSite {
  dir: string;
  server: TestServer;
  close(): Promise<void>;
}

/** `prefix` names the temporary folder (skillpin-<what>-), so a leftover one says which test made it. */
export async function servePublisherSite(prefix: string, spec: SiteSpec): Promise<ServedSite> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writePublisherSite(dir, spec);
  const server = await startServer({ root: dir });
  return {
    dir,
    server,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
