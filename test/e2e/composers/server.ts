// One HTTPS server on 127.0.0.1 for every test composer page, routed by Host and path
// (test certificate in test/e2e/fixtures/tls, for these host names only). Discovery
// requests from the extension (/llms.txt, /.well-known/…) get 404, like a chat site that
// publishes no skills. Every request is logged.
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { COMPOSER_PAGES, type ComposerPage } from './catalogue';
import { COMPOSERS_OUT } from './build';

const TLS = resolve('test/e2e/fixtures/tls');

export interface ComposerServer {
  port: number;
  /** https://<host>:<port><path> of a page. */
  url(page: ComposerPage): string;
  origin(page: ComposerPage): string;
  log: { host: string; path: string; status: number }[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css' };

export async function startComposerServer(outDir = COMPOSERS_OUT): Promise<ComposerServer> {
  const log: ComposerServer['log'] = [];
  const server: Server = createServer({ key: readFileSync(join(TLS, 'key.pem')), cert: readFileSync(join(TLS, 'cert.pem')) }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', 'https://x');
    // The page whose folder holds this path (longest folder first), and the file asked for.
    const page = COMPOSER_PAGES.filter((p) => p.host === host && url.pathname.startsWith(p.path)).sort((a, b) => b.path.length - a.path.length)[0];
    const rest = page ? url.pathname.slice(page.path.length) : '';
    const name = rest === '' ? 'index.html' : rest;
    let status = 404;
    if (page && name && /^(index\.html|app\.js|app\.css)$/.test(name)) {
      try {
        const bytes = readFileSync(join(outDir, page.id, name));
        res.writeHead(200, { 'Content-Type': TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
        res.end(bytes);
        status = 200;
      } catch {
        status = 404;
      }
    }
    if (status === 404) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
    log.push({ host, path: url.pathname, status });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const origin = (page: ComposerPage): string => `https://${page.host}:${port}`;
  return {
    port,
    origin,
    url: (page) => `${origin(page)}${page.path}`,
    log,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
