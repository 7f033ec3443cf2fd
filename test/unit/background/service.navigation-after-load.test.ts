// A navigation's probe waits for the page (lib/scheduler/load-gate.ts wired into the service):
// nothing is requested from the origin, and nothing stored, until the tab's load event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundService } from '../../../lib/background/service';
import { createLoadGate, type LoadGate } from '../../../lib/scheduler/load-gate';
import type { TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import type { OriginReport } from '../../../lib/types';
import { startService } from './service-harness';
import { FakePlatform } from './fake-platform';

let published: ServedSite;
let server: TestServer;
let gate: LoadGate;
let service: BackgroundService;
let platform: FakePlatform;

beforeEach(async () => {
  published = await servePublisherSite('skillpin-load-', { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(5) });
  ({ server } = published);
  gate = createLoadGate({ capMs: 60_000, setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) });
  platform = new FakePlatform();
  service = await startService({ name: 'load-test', now: () => Date.now(), loadGate: gate, platform });
});

afterEach(async () => {
  await published.close();
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

  it('a revisit: its badge from the stored report waits for the load event too (nothing of the handling runs while the page loads)', async () => {
    const first = service.onNavigation(7, server.origin + '/', false);
    gate.loaded(7, server.origin + '/');
    expect(((await first) as OriginReport).state).toBe('done');
    platform.badges.clear();
    const requests = server.log.length;
    // As the navigation listener does: the commit is noted first (entrypoints/background/index.ts).
    gate.committed(7, server.origin + '/?again');
    const again = service.onNavigation(7, server.origin + '/?again', false);
    await new Promise((r) => setTimeout(r, 300));
    expect(platform.badges.get(7)).toBeUndefined();
    gate.loaded(7, server.origin + '/?again');
    const report = (await again) as OriginReport;
    expect(report.state).toBe('done');
    expect(platform.badges.get(7)?.text).toBe(String(report.summary.total));
    // A quiet revisit: the stored report answered, nothing was requested.
    expect(server.log.length).toBe(requests);
  });
});
