// The worker keeps each finished report of a normal window for the popup's first paint
// (lib/background/kept-report.ts): after a probe and after a report it answered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { BackgroundService } from '../../../lib/background/service';
import { keptReportKey, keptReportOf } from '../../../lib/background/kept-report';
import type { OriginReport } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { buildSite, keyPair } from '../../support/signed-sites';
import { RulesPlatform } from './fake-platform';
import { POPUP, startService } from './service-harness';

let server: TestServer;
let platform: RulesPlatform;
let service: BackgroundService;
const ask = <T>(msg: Record<string, unknown>) => service.handleMessage(msg, POPUP) as Promise<T>;
const kept = () => keptReportOf(platform.session.get(keptReportKey(server.origin)), server.origin);
/** The copy is written after the answer has gone (a timer, then the session writes): wait for it. */
const keptBecomes = (report: OriginReport) => vi.waitFor(() => expect(kept()).toEqual(report), { timeout: 2000 });

beforeEach(async () => {
  server = await startServer({ files: buildSite({ skills: [{ name: 'alpha' }], key: keyPair(82) }) });
  platform = new RulesPlatform();
  service = await startService({ platform, name: 'kept-report', indexedDB: new IDBFactory(), policyWaitMs: 30 });
  await service.idle();
});

afterEach(async () => {
  await server.close();
});

describe('the kept report', () => {
  it('is the report of the last probe and of the last answer', async () => {
    expect(kept()).toBeNull();
    const probed = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(probed.state).toBe('done');
    await keptBecomes(probed);
    platform.session.delete(keptReportKey(server.origin));
    const answered = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin });
    await keptBecomes(answered);
  });
});
