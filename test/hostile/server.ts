// The hostile server: plays one case's site on 127.0.0.1 through the shared loopback server
// (test/support/server.ts), with behaviours a static server cannot have: endless and dripping
// bodies, connections that never answer, truncated bodies, raw redirects, gzip encodings and
// stages. Requests under TRAP_PREFIX are logged as trap hits and answered 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'fflate';
import { startServer } from '../support/server';
import { TRAP_PREFIX, type HostileSite, type Reply, type ReplyContext, type ServedSite } from './types';

/** The header a mapping fetch sets so that the server knows the origin the client used. */
export const ORIGIN_HEADER = 'x-hostile-origin';

const encoder = new TextEncoder();

function toBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

function originOf(req: IncomingMessage, loopback: string): string {
  const h = req.headers[ORIGIN_HEADER];
  return typeof h === 'string' && h !== '' ? h : loopback;
}

/** Ends timers and sockets of long-running replies when the client goes away or the server closes. */
class Pending {
  private readonly cleanups = new Set<() => void>();
  add(fn: () => void): () => void {
    this.cleanups.add(fn);
    return () => this.cleanups.delete(fn);
  }
  closeAll(): void {
    for (const fn of [...this.cleanups]) fn();
    this.cleanups.clear();
  }
}

function play(reply: Reply, req: IncomingMessage, res: ServerResponse, pending: Pending): void {
  switch (reply.kind) {
    case 'bytes': {
      let body = toBytes(reply.body);
      const headers: Record<string, string> = { ...(reply.headers ?? {}) };
      if (reply.contentType !== null) headers['Content-Type'] = reply.contentType ?? 'text/plain; charset=utf-8';
      if (reply.encoding === 'gzip') {
        body = gzipSync(body, { level: 9 });
        headers['Content-Encoding'] = 'gzip';
      }
      if (reply.length !== 'omit') headers['Content-Length'] = String(body.byteLength);
      res.writeHead(reply.status ?? 200, headers);
      if (reply.length === 'omit') {
        // Several writes without a length: chunked transfer encoding.
        const step = Math.max(1, Math.ceil(body.byteLength / 4));
        for (let at = 0; at < body.byteLength; at += step) res.write(body.subarray(at, at + step));
        res.end();
      } else {
        res.end(body);
      }
      return;
    }
    case 'redirect': {
      const headers: Record<string, string> = {};
      if (reply.location !== null) headers['Location'] = reply.location;
      res.writeHead(reply.status ?? 302, headers);
      res.end();
      return;
    }
    case 'endless': {
      const headers: Record<string, string> = { 'Content-Type': reply.contentType ?? 'text/plain; charset=utf-8' };
      if (reply.declaredLength !== undefined) headers['Content-Length'] = String(reply.declaredLength);
      res.writeHead(200, headers);
      const chunk = encoder.encode('- [endless](/never/endless.md): more and more\n'.repeat(1400));
      let stopped = false;
      const stop = (): void => {
        stopped = true;
        res.destroy();
      };
      const remove = pending.add(stop);
      const pump = (): void => {
        while (!stopped) {
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      res.on('close', () => {
        stopped = true;
        remove();
      });
      pump();
      return;
    }
    case 'drip': {
      res.writeHead(200, { 'Content-Type': reply.contentType ?? 'text/plain; charset=utf-8' });
      if (reply.prefix) res.write(reply.prefix);
      const timer = setInterval(() => res.write('.'), reply.intervalMs ?? 1000);
      const stop = (): void => {
        clearInterval(timer);
        res.destroy();
      };
      const remove = pending.add(stop);
      res.on('close', () => {
        clearInterval(timer);
        remove();
      });
      return;
    }
    case 'never': {
      // Accept, read nothing more, answer nothing. The socket is destroyed when the client
      // gives up or the server closes.
      const remove = pending.add(() => req.socket.destroy());
      req.socket.on('close', remove);
      return;
    }
    case 'truncated': {
      res.writeHead(200, { 'Content-Type': reply.contentType ?? 'text/markdown; charset=utf-8', 'Content-Length': String(reply.declaredLength) });
      res.write(toBytes(reply.body), () => {
        // Let the bytes leave, then cut the connection short of the declared length.
        setTimeout(() => res.destroy(), 20);
      });
      return;
    }
  }
}

/** Starts a hostile server for `site`, at stage 0. */
export async function startHostileServer(site: HostileSite): Promise<ServedSite> {
  if (site.stages.length === 0) throw new Error('a hostile site needs at least one stage');
  let stage = 0;
  const pending = new Pending();
  const traps: ServedSite['log'] = [];
  let loopback = '';
  const server = await startServer({
    routes: [
      (req, res, url) => {
        const path = url.pathname;
        if (path.startsWith(TRAP_PREFIX)) {
          traps.push({ method: req.method ?? 'GET', path: path + url.search, status: 404, bytes: 0, headers: req.headers, at: Date.now() });
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('trap');
          return true;
        }
        const current = site.stages[stage];
        const spec = current?.paths[path];
        if (spec === undefined) return false;
        const ctx: ReplyContext = { origin: originOf(req, loopback), stage, path };
        const reply = typeof spec === 'function' ? spec(ctx) : spec;
        play(reply, req, res, pending);
        return true;
      },
    ],
  });
  loopback = server.origin;
  return {
    origin: server.origin,
    log: server.log,
    trapHits: () => [...traps],
    setStage(n: number): void {
      if (!Number.isInteger(n) || n < 0 || n >= site.stages.length) throw new Error(`no stage ${n}`);
      stage = n;
    },
    stageCount: site.stages.length,
    site,
    close: async () => {
      pending.closeAll();
      await server.close();
    },
  };
}
