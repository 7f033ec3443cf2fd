// A static loopback server for tests and benchmarks: serves a folder as an origin root,
// byte-exact, with the content types of the corpus README, ETag/Last-Modified revalidation,
// a request log, and optional route overrides for hostile or dynamic cases.
// It listens on 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

/** Return true when the route handled the request. */
export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface ServerOptions {
  /** Folder served as the web root. Optional when routes answer everything. */
  root?: string;
  /** URL path prefix → folder, checked before `root` (longest prefix first). */
  mounts?: Record<string, string>;
  routes?: Route[];
  /** Cache-Control sent with every file (default: none). */
  cacheControl?: string;
  /** Extra path → bytes overrides (the variant overlays). */
  files?: Record<string, string | Uint8Array>;
}

export interface TestServer {
  origin: string;
  port: number;
  url(path: string): string;
  log: LoggedRequest[];
  options: ServerOptions;
  close(): Promise<void>;
}

export function contentTypeFor(path: string): string {
  const p = path.toLowerCase();
  if (p.endsWith('.txt') || p.endsWith('.pub')) return 'text/plain; charset=utf-8';
  if (p.endsWith('.md')) return 'text/markdown; charset=utf-8';
  if (p.endsWith('.json')) return 'application/json';
  if (p.endsWith('.tar.gz') || p.endsWith('.tgz')) return 'application/gzip';
  if (p.endsWith('.zip')) return 'application/zip';
  if (p.endsWith('.html') || p.endsWith('.htm')) return 'text/html; charset=utf-8';
  if (p.endsWith('.js') || p.endsWith('.mjs')) return 'text/javascript';
  if (p.endsWith('.css')) return 'text/css';
  if (p.endsWith('.png')) return 'image/png';
  if (p.endsWith('.svg')) return 'image/svg+xml';
  return 'application/octet-stream';
}

async function readUnder(folder: string, relPath: string): Promise<{ bytes: Buffer; mtime: Date } | null> {
  const target = normalize(join(folder, relPath));
  const base = normalize(folder.endsWith(sep) ? folder : folder + sep);
  if (!target.startsWith(base) && target !== normalize(folder)) return null;
  try {
    const st = await stat(target);
    if (!st.isFile()) return null;
    return { bytes: await readFile(target), mtime: st.mtime };
  } catch {
    return null;
  }
}

/** Sends bytes with validators, answering 304 to a matching conditional request. */
export function sendBytes(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Uint8Array,
  contentType: string,
  opts: { cacheControl?: string; mtime?: Date } = {},
): void {
  const etag = '"' + createHash('sha256').update(bytes).digest('hex').slice(0, 32) + '"';
  const lastModified = (opts.mtime ?? new Date(0)).toUTCString();
  const headers: Record<string, string> = { ETag: etag, 'Last-Modified': lastModified };
  if (opts.cacheControl) headers['Cache-Control'] = opts.cacheControl;
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  if ((inm && inm === etag) || (!inm && ims && ims === lastModified)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': contentType, 'Content-Length': String(bytes.byteLength) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const log: LoggedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: LoggedRequest = { method: req.method ?? 'GET', path: url.pathname + url.search, status: 0, bytes: 0, headers: req.headers, at: Date.now() };
    log.push(entry);
    const origWrite = res.write.bind(res);
    const origEnd = res.end.bind(res);
    const count = (chunk: unknown): void => {
      if (typeof chunk === 'string') entry.bytes += Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) entry.bytes += chunk.byteLength;
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      count(chunk);
      return (origWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== 'function') count(chunk);
      entry.status = res.statusCode;
      return (origEnd as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;
    try {
      for (const route of options.routes ?? []) {
        if (await route(req, res, url)) return;
      }
      const path = decodeURIComponent(url.pathname);
      const override = options.files?.[path];
      if (override !== undefined) {
        const bytes = typeof override === 'string' ? Buffer.from(override, 'utf8') : override;
        sendBytes(req, res, bytes, contentTypeFor(path), { cacheControl: options.cacheControl });
        return;
      }
      const mounts = Object.entries(options.mounts ?? {}).sort((a, b) => b[0].length - a[0].length);
      for (const [prefix, folder] of mounts) {
        if (path.startsWith(prefix)) {
          const found = await readUnder(folder, path.slice(prefix.length));
          if (found) {
            sendBytes(req, res, found.bytes, contentTypeFor(path), { cacheControl: options.cacheControl, mtime: found.mtime });
            return;
          }
        }
      }
      if (options.root) {
        const found = await readUnder(options.root, path);
        if (found) {
          sendBytes(req, res, found.bytes, contentTypeFor(path), { cacheControl: options.cacheControl, mtime: found.mtime });
          return;
        }
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path: string) => origin + path,
    log,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
