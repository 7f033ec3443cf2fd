// Loopback servers for the browser benches. Each load uses a fresh origin on the same server
// (`<label>.localhost:<port>`: Chromium resolves every *.localhost name to 127.0.0.1), so every
// visit is a first visit for the extension and nothing comes from a previous probe.
import { startServer, type LoggedRequest, type TestServer } from '../../../scripts/lib/server.mjs';
import { addHeavyPage, makeSite } from './sites';

export interface BenchSite {
  skills: number;
  server: TestServer;
  /** A fresh origin on this server. */
  freshOrigin(label: string): string;
  /** The requests the server saw for one origin (by Host header). */
  requestsFor(origin: string): LoggedRequest[];
  close(): Promise<void>;
}

export async function startBenchSite(skills: number, opts: { cacheControl?: string; heavyPage?: boolean } = {}): Promise<BenchSite> {
  const dir = makeSite(skills);
  if (opts.heavyPage) addHeavyPage(dir);
  const server = await startServer({ root: dir, cacheControl: opts.cacheControl });
  let n = 0;
  return {
    skills,
    server,
    freshOrigin: (label) => `http://${label}-${++n}-s${skills}.localhost:${server.port}`,
    requestsFor: (origin) => {
      const host = new URL(origin).host;
      return server.log.filter((r) => r.headers.host === host);
    },
    close: () => server.close(),
  };
}

/** The page's own requests (the document and the favicon); everything else is the extension's. */
export function isPageRequest(r: LoggedRequest): boolean {
  return r.path === '/' || r.path.startsWith('/?') || r.path === '/favicon.ico';
}
