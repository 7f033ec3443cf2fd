// The badge follows a probe's verdict, not its write: it is set while the one commit
// of the probe is still waiting, and corrected when the write changed the verdict (a first pin the
// store refused). No timing is asserted: the commit is held until the badge has been seen.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { badgeFor, type Badge } from '../../../lib/background/badge';
import type { BackgroundService } from '../../../lib/background/service';
import { StoreError } from '../../../lib/store/errors';
import type { ProbeCommit, TrustStore } from '../../../lib/store/store-api';
import type { OriginReport } from '../../../lib/types';
import type { TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import { FakePlatform } from './fake-platform';
import { startService } from './service-harness';

const TAB = 7;

/** Every badge set, in order. */
class BadgeLog extends FakePlatform {
  set: { tabId: number; badge: Badge }[] = [];
  override async setBadge(tabId: number, badge: Badge) {
    this.set.push({ tabId, badge });
    await super.setBadge(tabId, badge);
  }
}

let published: ServedSite;
let server: TestServer;
let platform: BadgeLog;

beforeEach(async () => {
  published = await servePublisherSite('skillpin-verdict-badge-', { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(7) });
  ({ server } = published);
  platform = new BadgeLog();
  platform.tabs = [{ id: TAB, url: server.origin + '/', incognito: false }];
});

afterEach(async () => {
  await published.close();
});

/** `store` whose commitProbe runs `around` first. */
function aroundCommit(around: (c: ProbeCommit) => Promise<void>): (store: TrustStore) => TrustStore {
  return (store) =>
    new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        if (prop !== 'commitProbe') return v.bind(target);
        return async (c: ProbeCommit) => {
          await around(c);
          return (v as (c: ProbeCommit) => Promise<unknown>).call(target, c);
        };
      },
    });
}

describe('the badge from the verdict', () => {
  it('is set before the probe is written', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let committing = false;
    const service: BackgroundService = await startService({
      platform,
      name: `verdict-badge-${Math.random()}`,
      wrapStore: aroundCommit(async (c) => {
        if (!c.report) return;
        committing = true;
        await held;
      }),
    });
    const probe = service.onNavigation(TAB, server.origin + '/', false);
    await vi.waitFor(() => expect(committing).toBe(true), { timeout: 20_000 });
    // The commit is held: the badge already shows the verdict.
    await vi.waitFor(() => expect(platform.badges.get(TAB)?.text).toMatch(/^\d+$/), { timeout: 20_000 });
    release();
    const report = (await probe) as OriginReport;
    expect(platform.badges.get(TAB)).toEqual(badgeFor(report));
  });

  it('is corrected when the write changed the verdict (a first pin the store refused)', async () => {
    const service = await startService({
      platform,
      name: `verdict-badge-${Math.random()}`,
      wrapStore: aroundCommit(async (c) => {
        if (c.pin?.expect === 'pinned') throw new StoreError('quota-exceeded', 'storage quota exceeded: QuotaExceededError');
      }),
    });
    const report = (await service.onNavigation(TAB, server.origin + '/', false)) as OriginReport;
    expect(report.key).toMatchObject({ state: 'none', unavailable: true });
    const shown = platform.set.filter((b) => b.tabId === TAB).map((b) => b.badge);
    // Told first as verified (the pin it would write), then corrected.
    expect(shown[0]?.text).toMatch(/^\d+$/);
    expect(shown.at(-1)).toEqual(badgeFor(report));
    expect(shown.at(-1)?.text).not.toBe(shown[0]?.text);
  });
});
