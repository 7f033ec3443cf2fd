// @ts-check
// A static loopback server for tests, benchmarks and the demo: serves a folder as an
// origin root, byte-exact, with the content types of the corpus README, ETag /
// Last-Modified revalidation, a request log, and optional route overrides for hostile
// or dynamic cases. It listens on 127.0.0.1 only, and on the same port of the other loopback
// addresses `alsoOn` names (127.0.0.2 …: a host the browser maps there answers from another address).
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';

/**
 * @typedef {{ method: string, path: string, status: number, bytes: number, headers: Record<string, string | string[] | undefined>, at: number }} LoggedRequest
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL) => boolean | Promise<boolean>} Route
 * @typedef {{ root?: string, mounts?: Record<string, string>, routes?: Route[], cacheControl?: string, files?: Record<string, string | Uint8Array>, alsoOn?: string[] }} ServerOptions
 * @typedef {{ origin: string, port: number, url(path: string): string, log: LoggedRequest[], options: ServerOptions, close(): Promise<void> }} TestServer
 */

/** @param {string} path */
export function contentTypeFor(path) {
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

/**
 * @param {string} folder
 * @param {string} relPath
 * @returns {Promise<{ bytes: Buffer, mtime: Date } | null>}
 */
async function readUnder(folder, relPath) {
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

/**
 * Sends bytes with validators, answering 304 to a matching conditional request.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Uint8Array} bytes
 * @param {string} contentType
 * @param {{ cacheControl?: string, mtime?: Date }} [opts]
 */
export function sendBytes(req, res, bytes, contentType, opts = {}) {
  const etag = '"' + createHash('sha256').update(bytes).digest('hex').slice(0, 32) + '"';
  const lastModified = (opts.mtime ?? new Date(0)).toUTCString();
  /** @type {Record<string, string>} */
  const headers = { ETag: etag, 'Last-Modified': lastModified };
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

/**
 * @param {ServerOptions} [options]
 * @returns {Promise<TestServer>}
 */
export async function startServer(options = {}) {
  /** @type {LoggedRequest[]} */
  const log = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    /** @type {LoggedRequest} */
    const entry = { method: req.method ?? 'GET', path: url.pathname + url.search, status: 0, bytes: 0, headers: req.headers, at: Date.now() };
    log.push(entry);
    const origWrite = res.write.bind(res);
    const origEnd = res.end.bind(res);
    /** @param {unknown} chunk */
    const count = (chunk) => {
      if (typeof chunk === 'string') entry.bytes += Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) entry.bytes += chunk.byteLength;
    };
    // @ts-ignore -- counting wrapper around the overloaded write/end
    res.write = (chunk, ...rest) => {
      count(chunk);
      // @ts-ignore
      return origWrite(chunk, ...rest);
    };
    // @ts-ignore
    res.end = (chunk, ...rest) => {
      if (chunk !== undefined && typeof chunk !== 'function') count(chunk);
      entry.status = res.statusCode;
      // @ts-ignore
      return origEnd(chunk, ...rest);
    };
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
        const rel = path.endsWith('/') ? path + 'index.html' : path;
        const found = await readUnder(options.root, rel);
        if (found) {
          sendBytes(req, res, found.bytes, contentTypeFor(rel), { cacheControl: options.cacheControl, mtime: found.mtime });
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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  /** The same handler on the same port of other loopback addresses. @type {import('node:http').Server[]} */
  const extra = [];
  for (const host of options.alsoOn ?? []) {
    if (!/^127\.\d+\.\d+\.\d+$/.test(host)) throw new Error(`${host} is not a loopback address`);
    const more = createServer((req, res) => server.emit('request', req, res));
    await new Promise((resolve, reject) => {
      more.once('error', reject);
      more.listen(port, host, () => resolve(undefined));
    });
    extra.push(more);
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => origin + path,
    log,
    options,
    close: () =>
      new Promise((resolve) => {
        for (const more of extra) {
          more.closeAllConnections();
          more.close();
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
