// Off the page's path by construction (lib/background/page-events.ts): the background hears no event
// of a page's load before its load event, and the probe of a visited origin starts after it, or
// once a load that never finishes is stopped. The order is read from the test server's log and the
// worker's own trace, not from timings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, waitForReport } from './support/extension';
import { navTrace, recordedEvents } from './support/listeners';
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
    expect(mine).toEqual(['load']);
  } finally {
    await site.server.close();
    rmSync(site.dir, { recursive: true, force: true });
  }
});

test('a page that never finishes loading is not probed while it loads; it is once its load is stopped', async ({ context, sw, extPage }) => {
  const site = await slowSite(true);
  try {
    const page = await context.newPage();
    await page.goto(site.server.origin + '/', { waitUntil: 'commit' });
    await expect.poll(() => site.marks.some((m) => m.what === 'slow-start')).toBe(true);
    // Still loading: the worker was told nothing of the page, nothing is asked of the origin.
    await page.waitForTimeout(1500);
    expect(site.marks.map((m) => m.what)).not.toContain('/llms.txt');
    expect((await navTrace(sw)).filter((e) => e.url.startsWith(site.server.origin))).toEqual([]);
    // The user stops it (the Stop button does what window.stop() does): the site is checked now.
    await page.evaluate(() => window.stop());
    const report = await waitForReport(extPage, site.server.origin, 60_000);
    expect(report.state).toBe('done');
    const order = site.marks.map((m) => m.what);
    expect(order.indexOf('slow-start')).toBeLessThan(order.indexOf('/llms.txt'));
    const trace = await navTrace(sw);
    expect(trace.filter((e) => e.url.startsWith(site.server.origin))).toHaveLength(1);
    await page.close();
  } finally {
    await site.server.close();
    rmSync(site.dir, { recursive: true, force: true });
  }
});

test('no listener of a page load before its load event: no tab creation, commit or activation is heard', async ({ sw }) => {
  const events = await recordedEvents(sw);
  for (const early of ['tabs.onCreated', 'tabs.onActivated', 'tabs.onUpdated', 'tabs.onReplaced', 'webNavigation.onBeforeNavigate', 'webNavigation.onCommitted', 'webNavigation.onDOMContentLoaded']) {
    expect(events, early).not.toContain(early);
  }
  expect(events).toContain('webNavigation.onCompleted');
  expect(events).toContain('webNavigation.onErrorOccurred');
});
