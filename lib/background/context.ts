// The state one background worker keeps, shared by the handler slices (handlers/) and the
// browser events (events.ts): the store, the settings and the policy with their caches, the
// probe scheduler, the menus, and when trust state or settings last changed here.
import { probeOrigin } from '../engine/probe-origin';
import type { StateChangeKind } from '../messages';
import { menuModel } from './menus';
import { createScheduler, type Scheduler } from '../scheduler/scheduler';
import type { ManagedPolicy } from '../trust/managed';
import type { TrustStore } from '../trust/store-api';
import type { Clock, OriginReport } from '../types';
import { maybeNotify, updateBadges } from './after-report';
import { httpOrigin } from '../chat/sites';
import type { BackgroundDeps, BackgroundPlatform } from './deps';
import { policyCache } from './policy-cache';
import { isPrivateRequest } from './private-request';
import type { SenderLike } from './sender';
import { settingsCache, type SettingsCache } from './settings-cache';
import { approvedList } from './skill-access';
import { stateAnnouncer } from './state-change';
import { storeOnce } from './store-once';

export interface ServiceContext {
  deps: BackgroundDeps;
  platform: BackgroundPlatform;
  clock: Clock;
  store(): Promise<TrustStore>;
  policy(): Promise<ManagedPolicy>;
  /** Managed storage changed: read the policy again. */
  forgetPolicy(): void;
  settings: SettingsCache;
  scheduler: Scheduler;
  /** The stored report of an origin; one left in 'probing' by a stopped worker counts as none. */
  currentReport(origin: string): Promise<OriginReport | null>;
  refreshMenus(activeUrl: string | null): Promise<void>;
  /** refreshMenus for the last active URL; a failure is dropped (menus are a convenience). */
  refreshMenusSafe(): Promise<void>;
  /**
   * Whether a probe request is about a private window, judged on the browser's tab list
   * (private-request.ts). When the tabs cannot be listed the answer is yes: a probe that
   * should not happen costs more than a re-check that is refused.
   */
  privateRequest(origin: string, tabId: number | undefined, sender: SenderLike): Promise<boolean>;
  /** Tells open pages that settings or trust state changed. */
  announce(kind: StateChangeKind): Promise<void>;
  /** The last change of trust state or settings made through this worker (its start, at first). */
  stateChangedAt: number;
}

export function createContext(deps: BackgroundDeps): ServiceContext {
  const { platform, clock } = deps;
  const store = storeOnce(deps.openStore);
  const policy = policyCache(platform);
  const settings = settingsCache(store, policy.get);
  let lastActiveUrl: string | null = null;

  const scheduler = createScheduler({
    clock,
    run: async (origin, opts) => {
      const s = await store();
      const current = await settings.effective();
      const managedKeys = (await policy.get()).pinnedKeys;
      const report = await probeOrigin(origin, { fetch: deps.fetch, guard: deps.guard, store: s, clock, settings: current, managedKeys }, { force: opts.force });
      await updateBadges(platform, report);
      await maybeNotify(platform, report);
      await ctx.refreshMenusSafe();
      return report;
    },
  });

  const ctx: ServiceContext = {
    deps,
    platform,
    clock,
    store,
    policy: policy.get,
    forgetPolicy: policy.forget,
    settings,
    scheduler,
    stateChangedAt: clock.now(),
    announce: stateAnnouncer((k, v) => platform.setLocal(k, v), clock),
    async currentReport(origin) {
      const report = await (await store()).getReport(origin);
      // A report left in 'probing' by a stopped worker is stale: nothing is in flight here.
      if (report && report.state === 'probing' && !scheduler.inFlight(origin)) return null;
      return report;
    },
    async refreshMenus(activeUrl) {
      lastActiveUrl = activeUrl;
      const approved = await approvedList(ctx);
      const { chatSites } = await settings.effective();
      await platform.updateMenus(menuModel(approved, activeUrl ? httpOrigin(activeUrl) : null, chatSites));
    },
    async refreshMenusSafe() {
      try {
        await ctx.refreshMenus(lastActiveUrl);
      } catch {
        // Menus are a convenience; a failure here must not break probing.
      }
    },
    async privateRequest(origin, tabId, sender) {
      try {
        return isPrivateRequest(await platform.listTabs(), origin, tabId, sender);
      } catch {
        return true;
      }
    },
  };
  return ctx;
}
