// Publisher sites whose requests the test can hold, watch or answer differently per request,
// for stopping the worker at a chosen moment and for racing keys.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, sendBytes, contentTypeFor, type TestServer } from '../../support/server';
import { writePublisherSite, DEMO_SKILLS, keyPair, type SkillSpec } from '../../../scripts/lib/publisher-site.mjs';

export interface Gate {
  /** Resolves when a matching request arrived (and is being held). */
  arrived: Promise<void>;
  release(): void;
}

type Hook = (req: IncomingMessage, res: ServerResponse, path: string) => boolean | Promise<boolean>;

export interface FaultSite {
  server: TestServer;
  origin: string;
  dir: string;
  /** The site's public key, base64. */
  keyB64: string;
  /** Holds the next request for `path` until released (later requests pass). */
  hold(path: string): Gate;
  /** Calls `cb` once the response to the next request for `path` has been sent. */
  afterResponse(path: string, cb: () => void): void;
  /** Requests whose path matches. */
  count(path: string | RegExp): number;
  close(): Promise<void>;
}

export interface FaultSiteOptions {
  seed: Uint8Array;
  skills?: SkillSpec[];
  /** Answer `path` with these bytes instead of the folder (per request, see `serve`). */
  serve?: (path: string, n: number) => Uint8Array | null;
  /** Paths answered 404 whatever the folder holds. */
  missing?: string[];
}

export async function startFaultSite(opts: FaultSiteOptions): Promise<FaultSite> {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-fault-'));
  writePublisherSite(dir, { skills: opts.skills ?? DEMO_SKILLS, seed: opts.seed });
  const hooks: { path: string; hook: Hook }[] = [];
  const seen = new Map<string, number>();
  const route = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const path = url.pathname;
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const i = hooks.findIndex((h) => h.path === path);
    if (i >= 0) {
      const [h] = hooks.splice(i, 1);
      if (h && (await h.hook(req, res, path))) return true;
    }
    if (opts.missing?.includes(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return true;
    }
    const bytes = opts.serve?.(path, n) ?? null;
    if (bytes) {
      sendBytes(req, res, bytes, contentTypeFor(path));
      return true;
    }
    return false;
  };
  const server = await startServer({ root: dir, routes: [route] });
  return {
    server,
    origin: server.origin,
    dir,
    keyB64: keyPair(opts.seed).publicKeyB64,
    hold(path) {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let arrive!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      hooks.push({
        path,
        hook: async () => {
          arrive();
          await released;
          return false;
        },
      });
      return { arrived, release };
    },
    afterResponse(path, cb) {
      hooks.push({
        path,
        hook: (_req, res) => {
          res.on('finish', cb);
          return false;
        },
      });
    },
    count(path) {
      return server.log.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path))).length;
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bytes a publisher site folder holds at `path` (to serve another site's file). */
export function siteFile(dir: string, path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, path)));
}
