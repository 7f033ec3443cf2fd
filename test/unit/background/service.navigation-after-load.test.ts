// A navigation's probe waits for the page (lib/scheduler/load-gate.ts wired into the service):
// nothing is requested from the origin, and nothing stored, until the tab's load event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackgroundService } from '../../../lib/background/service';
import { createLoadGate, type LoadGate } from '../../../lib/scheduler/load-gate';
import { startServer, type TestServer } from '../../support/server';
import { writePublisherSite, DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import type { OriginReport } from '../../../lib/types';
import { startService } from './service-harness';

let dir: string;
let server: TestServer;
let gate: LoadGate;
let service: BackgroundService;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skillpin-load-'));
  writePublisherSite(dir, { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(5) });
  server = await startServer({ root: dir });
  gate = createLoadGate({ capMs: 60_000, setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) });
  service = await startService({ name: 'load-test', now: () => Date.now(), loadGate: gate });
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a navigation probes after its page has loaded', () => {
  it('no request and no stored report before the load event; the probe follows it', async () => {
    const probe = service.onNavigation(7, server.origin + '/', false);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.log).toEqual([]);
    expect(await service.handleMessage({ type: 'skillpin:report', origin: server.origin }, { id: 'ext-id', url: 'chrome-extension://abcdefghijklmnop/popup.html' })).toBeNull();
    gate.loaded(7, server.origin + '/');
    const report = (await probe) as OriginReport;
    expect(report.state).toBe('done');
    expect(server.log.length).toBeGreaterThan(0);
  });

  it('a page left before it loaded is not probed', async () => {
    const probe = service.onNavigation(7, server.origin + '/', false);
    await new Promise((r) => setTimeout(r, 50));
    gate.closed(7);
    expect(await probe).toBeNull();
    expect(server.log).toEqual([]);
  });
});
