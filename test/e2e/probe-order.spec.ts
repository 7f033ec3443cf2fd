// Off the page's path by construction (lib/scheduler/load-gate.ts): the probe of a visited origin
// starts after the page's load event, or after the cap for a page that never finishes. The order
// is read from the test server's log and the worker's own trace, not from timings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, waitForReport } from './support/extension';
import { navTrace, setLoadCap } from './support/listeners';
import { startServer, type TestServer } from '../support/server';
import { writePublisherSite, DEMO_SKILLS } from '../../scripts/lib/publisher-site.mjs';

interface Mark {
  what: string;
}

async function slowSite(hang: boolean): Promise<{ server: TestServer; marks: Mark[]; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-order-'));
  writePublisherSite(dir, { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(9) });
  const marks: Mark[] = [];
  const server = await startServer({
    root: dir,
    routes: [
      async (_req, res, url) => {
        if (url.pathname !== '/' && url.pathname !== '/slow.png') marks.push({ what: url.pathname });
        if (url.pathname === '/') {
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><title>slow</title><h1>A page with a slow image</h1><img src="/slow.png" alt="">');
          marks.push({ what: 'page' });
          return true;
        }
        if (url.pathname === '/slow.png') {
          marks.push({ what: 'slow-start' });
          if (hang) return true; // never answered: the load event never comes
          await new Promise((r) => setTimeout(r, 1500));
          res.writeHead(200, { 'Content-Type': 'image/png' });
          res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
          marks.push({ what: 'slow-done' });
          return true;
        }
        return false;
      },
    ],
  });
  return { server, marks, dir };
}

const DISCOVERY = ['/llms.txt', '/.well-known/agent-skills/index.json'];

test('the probe starts after the page has loaded: no discovery request before the slow image completes', async ({ context, sw, extPage }) => {
  const site = await slowSite(false);
  try {
    // A loaded machine may take longer than the 5 s cap to load even this page: the order is the point.
    await setLoadCap(sw, 60_000);
    const page = await context.newPage();
    await page.goto(site.server.origin + '/', { waitUntil: 'load' });
    const report = await waitForReport(extPage, site.server.origin);
    expect(report.state).toBe('done');
    const order = site.marks.map((m) => m.what);
    const done = order.indexOf('slow-done');
    expect(done).toBeGreaterThan(-1);
    for (const path of DISCOVERY) {
      const at = order.indexOf(path);
      expect(at, `${path} in ${order.join(', ')}`).toBeGreaterThan(done);
    }
    const trace = await navTrace(sw);
    const mine = trace.filter((e) => e.url.startsWith(site.server.origin)).map((e) => e.kind);
    expect(mine).toEqual(['commit', 'load']);
  } finally {
    await site.server.close();
    rmSync(site.dir, { recursive: true, force: true });
  }
});

test('a page that never finishes loading is probed after the cap', async ({ context, sw, extPage }) => {
  const site = await slowSite(true);
  try {
    await setLoadCap(sw, 2_000);
    const page = await context.newPage();
    await page.goto(site.server.origin + '/', { waitUntil: 'commit' });
    const report = await waitForReport(extPage, site.server.origin, 60_000);
    expect(report.state).toBe('done');
    const order = site.marks.map((m) => m.what);
    expect(order.indexOf('slow-start')).toBeLessThan(order.indexOf('/llms.txt'));
    const trace = await navTrace(sw);
    expect(trace.filter((e) => e.url.startsWith(site.server.origin)).map((e) => e.kind)).toEqual(['commit', 'cap']);
    await page.close();
  } finally {
    await site.server.close();
    rmSync(site.dir, { recursive: true, force: true });
  }
});
