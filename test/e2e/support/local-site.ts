// A publisher testing its site locally (http://127.0.0.1:<port>, a private origin, probed like
// any other: PRODUCT.md §2.7) whose redirects stay on local hosts: /llms.txt moved under /docs/,
// a skill redirected within the origin, a skill redirected to localhost on the same port, and a
// skill whose bytes are held back until the test releases them (so that a test can look at the
// session rules while that request runs). Every request is logged with its host and path.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { redirect, send } from './hop-site';
import { createHold } from './hold';
import { entryFor, indexDoc, llmsTxt, skillText } from '../../hostile/site-kit';

export interface LocalSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** The held skill's URL. */
  heldUrl: string;
  hits: Array<{ host: string; path: string }>;
  held(): number;
  release(): void;
  close(): Promise<void>;
}

const BODY = {
  sameHop: skillText('same-hop'),
  toLocalhost: skillText('to-localhost'),
  held: skillText('held'),
  fromDocs: skillText('from-docs'),
};
const HOLD_MS = 8000;

export async function startLocalSite(): Promise<LocalSite> {
  const hits: Array<{ host: string; path: string }> = [];
  const hold = createHold(HOLD_MS);
  let port = 0;
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    hits.push({ host, path });
    if (host === 'localhost' && path === '/skills/on-localhost/SKILL.md') return send(res, 200, BODY.toLocalhost);
    if (host !== '127.0.0.1') return send(res, 404, 'not found', 'text/plain');
    if (path === '/llms.txt') return redirect(res, '/docs/llms.txt');
    if (path === '/docs/llms.txt') return send(res, 200, llmsTxt([{ title: 'from-docs', url: '/skills/from-docs/SKILL.md' }]), 'text/plain; charset=utf-8');
    if (path === '/.well-known/agent-skills/index.json') {
      const doc = indexDoc([
        entryFor('same-hop', '/skills/same-hop/SKILL.md', BODY.sameHop),
        entryFor('to-localhost', '/skills/to-localhost/SKILL.md', BODY.toLocalhost),
        entryFor('held', '/skills/held/SKILL.md', BODY.held),
      ]);
      return send(res, 200, JSON.stringify(doc), 'application/json');
    }
    if (path === '/skills/from-docs/SKILL.md') return send(res, 200, BODY.fromDocs);
    if (path === '/skills/same-hop/SKILL.md') return redirect(res, '/skills/same-mid');
    if (path === '/skills/same-mid') return redirect(res, '/skills/same-final/SKILL.md');
    if (path === '/skills/same-final/SKILL.md') return send(res, 200, BODY.sameHop);
    if (path === '/skills/to-localhost/SKILL.md') return redirect(res, `http://localhost:${port}/skills/on-localhost/SKILL.md`);
    if (path === '/skills/held/SKILL.md') {
      await hold.wait();
      return send(res, 200, BODY.held);
    }
    return send(res, 404, 'not found', 'text/plain');
  };
  const server: Server = createServer((req, res) => {
    route(req, res).catch(() => send(res, 500, 'error', 'text/plain'));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    heldUrl: `${origin}/skills/held/SKILL.md`,
    hits,
    held: () => hold.count(),
    release: () => hold.release(),
    close: async () => {
      hold.release();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
