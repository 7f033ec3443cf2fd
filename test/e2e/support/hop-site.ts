// A publisher that looks public (pub.skillpin.test, mapped onto 127.0.0.1 by the browser's
// resolver flags) whose redirects try every hop a browser would otherwise follow unchecked:
// an artifact redirected to 127.0.0.1, an llms.txt that leaves the origin and comes back, an
// artifact bounced through another public host, an artifact bounced within the origin's own
// host, an artifact on a name that resolves to loopback, and (on an https origin) an artifact
// chain with a plain-http hop in the middle.
// Every request is logged with the host name the browser used, so a test can prove that a
// refused hop was never requested.
import { createServer as createHttps, type Server as HttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from '../../support/server';
import { entryFor, indexDoc, llmsTxt, skillText } from '../../hostile/site-kit';

export const PUB_HOST = 'pub.skillpin.test';
export const AWAY_HOST = 'away.skillpin.test';
export const ELSEWHERE_HOST = 'elsewhere.skillpin.test';
export const HOP_HOSTS = [PUB_HOST, AWAY_HOST, ELSEWHERE_HOST];
/** The loopback address the hosts other than the publisher answer from in Chromium (redirect-hops.spec.ts maps them there). */
export const ELSEWHERE_ADDRESS = '127.0.0.2';

export interface Hit {
  host: string;
  path: string;
}

export interface HopSite {
  /** The public-looking origin: http://pub.skillpin.test:<port>. */
  origin: string;
  /** The https origin on 127.0.0.1 (private) with a downgrade hop. */
  httpsOrigin: string;
  hits: Hit[];
  hit(host: string, pathPrefix: string): boolean;
  close(): Promise<void>;
}

const BODY = {
  control: skillText('control'),
  toPrivate: skillText('to-private'),
  bounce: skillText('bounce'),
  hop: skillText('hop'),
  dns: skillText('dns'),
  fromLlms: skillText('from-llms'),
  down: skillText('down'),
};

function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').replace(/:\d+$/, '');
}

export function send(res: ServerResponse, status: number, body: string, type = 'text/markdown; charset=utf-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}

export async function startHopSite(): Promise<HopSite> {
  const hits: Hit[] = [];
  let port = 0;
  let httpsPort = 0;
  const at = (host: string, path: string): string => `http://${host}:${port}${path}`;

  // The other hosts answer from 127.0.0.2 (ELSEWHERE_ADDRESS): an address the visited origin's own
  // responses never came from, as a public name that resolves into the local network would.
  const http: TestServer = await startServer({
    alsoOn: [ELSEWHERE_ADDRESS],
    routes: [
      async (req, res, url) => {
        const host = hostOf(req);
        const path = url.pathname;
        hits.push({ host, path });
        if (host === PUB_HOST) {
          if (path === '/') return (send(res, 200, '<!doctype html><title>pub</title><h1>A public publisher</h1>', 'text/html'), true);
          if (path === '/.well-known/agent-skills/index.json') {
            const doc = indexDoc([
              entryFor('control', '/skills/control/SKILL.md', BODY.control),
              entryFor('to-private', '/skills/to-private/SKILL.md', BODY.toPrivate),
              entryFor('bounce', '/skills/bounce/SKILL.md', BODY.bounce),
              entryFor('hop', '/skills/hop/SKILL.md', BODY.hop),
              entryFor('dns', at(ELSEWHERE_HOST, '/skills/dns/SKILL.md'), BODY.dns),
            ]);
            return (send(res, 200, JSON.stringify(doc), 'application/json'), true);
          }
          if (path === '/skills/control/SKILL.md') return (send(res, 200, BODY.control), true);
          if (path === '/skills/to-private/SKILL.md') return (redirect(res, `http://127.0.0.1:${port}/secret/SKILL.md`), true);
          if (path === '/skills/bounce/SKILL.md') return (redirect(res, at(AWAY_HOST, '/bounce')), true);
          if (path === '/skills/bounce-final/SKILL.md') return (send(res, 200, BODY.bounce), true);
          if (path === '/skills/hop/SKILL.md') return (redirect(res, '/skills/hop-mid'), true);
          if (path === '/skills/hop-mid') return (redirect(res, at(PUB_HOST, '/skills/hop-final/SKILL.md')), true);
          if (path === '/skills/hop-final/SKILL.md') return (send(res, 200, BODY.hop), true);
          if (path === '/llms.txt') return (redirect(res, at(AWAY_HOST, '/back-to-llms')), true);
          if (path === '/llms-real.txt') {
            return (send(res, 200, llmsTxt([{ title: 'from-llms', url: '/skills/from-llms/SKILL.md' }]), 'text/plain; charset=utf-8'), true);
          }
          if (path === '/skills/from-llms/SKILL.md') return (send(res, 200, BODY.fromLlms), true);
        }
        if (host === AWAY_HOST) {
          if (path === '/back-to-llms') return (redirect(res, at(PUB_HOST, '/llms-real.txt')), true);
          if (path === '/bounce') return (redirect(res, at(PUB_HOST, '/skills/bounce-final/SKILL.md')), true);
        }
        if (host === ELSEWHERE_HOST && path === '/skills/dns/SKILL.md') return (send(res, 200, BODY.dns), true);
        if (host === '127.0.0.1') {
          // What the private target would hand out: the very bytes the index declares, so that
          // only the hop check (never the digest) can keep them out.
          if (path === '/secret/SKILL.md') return (send(res, 200, BODY.toPrivate), true);
          if (path === '/down-hop') return (redirect(res, `https://127.0.0.1:${httpsPort}/skills/down-final/SKILL.md`), true);
        }
        return false;
      },
    ],
  });
  port = Number(new URL(http.origin).port);

  const tls = { key: readFileSync('test/e2e/fixtures/tls/key.pem'), cert: readFileSync('test/e2e/fixtures/tls/cert.pem') };
  const secure: HttpsServer = createHttps(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    hits.push({ host: `https:${hostOf(req)}`, path });
    if (path === '/') return send(res, 200, '<!doctype html><title>secure</title>', 'text/html');
    if (path === '/.well-known/agent-skills/index.json') {
      const doc = indexDoc([entryFor('control', '/skills/control/SKILL.md', BODY.control), entryFor('down', '/skills/down/SKILL.md', BODY.down)]);
      return send(res, 200, JSON.stringify(doc), 'application/json');
    }
    if (path === '/skills/control/SKILL.md') return send(res, 200, BODY.control);
    // https → http → https: the final URL is https again, only the middle hop is a downgrade.
    if (path === '/skills/down/SKILL.md') return redirect(res, `http://127.0.0.1:${port}/down-hop`);
    if (path === '/skills/down-final/SKILL.md') return send(res, 200, BODY.down);
    return send(res, 404, 'not found', 'text/plain');
  });
  await new Promise<void>((ok) => secure.listen(0, '127.0.0.1', ok));
  httpsPort = (secure.address() as { port: number }).port;

  return {
    origin: `http://${PUB_HOST}:${port}`,
    httpsOrigin: `https://127.0.0.1:${httpsPort}`,
    hits,
    hit: (host, prefix) => hits.some((h) => h.host === host && h.path.startsWith(prefix)),
    close: async () => {
      await http.close();
      await new Promise<void>((ok) => secure.close(() => ok()));
    },
  };
}
