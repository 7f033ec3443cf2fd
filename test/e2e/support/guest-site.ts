// The pages of test/e2e/guest.spec.ts and test/e2e/firefox/guest.spec.ts: a site of its own,
// served under every host name the browser maps to 127.0.0.1 (loopback names, an intranet
// name, a single label), with a service worker, a shared and a dedicated worker, a form,
// fetch / XHR / EventSource endpoints and a WebSocket echo. A publishing site also lists
// one skill and holds the skill's bytes back until the test releases them, so that a probe
// and its requests are in flight while the page runs its own traffic.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { createHold } from './hold';
import { entryFor, indexDoc, skillText } from '../../hostile/site-kit';

const FIXTURES = 'test/e2e/fixtures/guest';
const FILES: Record<string, string> = {
  '/': 'index.html',
  '/checks.js': 'checks.js',
  '/fetches.js': 'fetches.js',
  '/sw.js': 'sw.js',
  '/shared.js': 'shared.js',
  '/worker.js': 'worker.js',
};
const SKILL_PATH = '/skills/guest/SKILL.md';
const SKILL = skillText('guest');
/** The longest a held skill waits for release (below the probe's 10 s timeout). */
const HOLD_MS = 8000;

export interface GuestSite {
  port: number;
  /** http://<host>:<port> */
  origin(host: string): string;
  /** Skill requests held open right now. */
  held(): number;
  /** Answers every held skill request. */
  release(): void;
  close(): Promise<void>;
}

function contentType(file: string): string {
  return file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
  });
}

/** A one-message WebSocket echo (RFC 6455): the handshake, one masked text frame in, one frame out. */
function echoSocket(req: IncomingMessage, socket: Duplex): void {
  const key = String(req.headers['sec-websocket-key'] ?? '');
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (buf.length < 2) return;
    const opcode = (buf[0] ?? 0) & 0x0f;
    let len = (buf[1] ?? 0) & 0x7f;
    let at = 2;
    if (len === 126) {
      len = buf.readUInt16BE(2);
      at = 4;
    }
    if (buf.length < at + 4 + len) return;
    const mask = buf.subarray(at, at + 4);
    const payload = Buffer.from(buf.subarray(at + 4, at + 4 + len).map((b, i) => b ^ (mask[i % 4] ?? 0)));
    buf = buf.subarray(at + 4 + len);
    if (opcode === 0x8) {
      socket.end(Buffer.from([0x88, 0]));
      return;
    }
    const reply = Buffer.from(`echo ${payload.toString('utf8')}`);
    socket.write(Buffer.concat([Buffer.from([0x81, reply.length]), reply]));
  });
  socket.on('error', () => undefined);
}

export async function startGuestSite(opts: { publishes: boolean }): Promise<GuestSite> {
  const hold = createHold(HOLD_MS);
  const sockets = new Set<Duplex>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const cors = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
    const file = FILES[path];
    if (file && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': contentType(file), 'Cache-Control': 'no-cache' });
      res.end(readFileSync(join(FIXTURES, file)));
      return;
    }
    if (path === '/api/ping') {
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
      res.end(`pong ${url.searchParams.get('from') ?? ''}`);
      return;
    }
    if (path === '/via-sw') {
      // Only reached when the service worker does not answer.
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
      res.end('not through the worker');
      return;
    }
    if (path === '/events') {
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      res.end('data: an event from loopback\n\n');
      return;
    }
    if (path === '/submit' && req.method === 'POST') {
      const body = await readBody(req);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`<!doctype html><title>posted</title><body>posted ${new URLSearchParams(body).toString()}</body>`);
      return;
    }
    if (opts.publishes && path === '/.well-known/agent-skills/index.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(indexDoc([entryFor('guest', SKILL_PATH, SKILL)])));
      return;
    }
    if (opts.publishes && path === SKILL_PATH) {
      await hold.wait();
      res.writeHead(200, { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(SKILL);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
    res.end('not found');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname === '/ws') echoSocket(req, socket);
    else socket.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    origin: (host) => `http://${host}:${port}`,
    held: () => hold.count(),
    release: () => hold.release(),
    close: async () => {
      hold.release();
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
