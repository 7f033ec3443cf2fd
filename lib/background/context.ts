// The state one background worker keeps, shared by the handler slices (handlers/) and the
// browser events (events.ts): the store, the settings and the policy with their caches, the
// probe scheduler, the menus, and when trust state or settings last changed here.
import { probeOrigin } from '../engine/probe-origin';
import { skippedReport } from '../report/skipped-report';
import type { StateChangeKind } from '../messages';
import { menuModel } from './menus';
import type { ManagedPolicy } from '../trust/managed';
import type { TrustStore } from '../trust/store-api';
import type { Clock, OriginReport } from '../types';
import { maybeNotify, updateBadges } from './after-report';
import { httpOrigin } from '../chat/sites';
import type { BackgroundDeps, BackgroundPlatform } from './deps';
import { policyCache } from './policy-cache';
import { isPrivateRequest } from './private-request';
import { createProbeGate, type ProbeGate } from './probe-gate';
import { siteAccess, type SiteAccess } from './site-access';
import type { SenderLike } from './sender';
import { settingsCache, type SettingsCache } from './settings-cache';
import { approvedList } from './approved-list';
import { createDesktopSync, type DesktopSync } from './desktop-sync';
import { stateAnnouncer } from './state-change';
import { refreshBadges } from './badge-refresh';
import { storeOnce } from './store-once';

export interface ServiceContext {
  deps: BackgroundDeps;
  platform: BackgroundPlatform;
  clock: Clock;
  store(): Promise<TrustStore>;
  /** The organisation's policy; null while it is not known (then nothing is probed, approved or handed off). */
  policy(): Promise<ManagedPolicy | null>;
  /** Managed storage changed: read the policy again. */
  forgetPolicy(): void;
  /** Why the policy is not known, when it is not (for the pages). */
  policyProblem(): string | null;
  /** Resolves once the policy is known, or after `maxMs`. */
  policySettled(maxMs: number): Promise<void>;
  settings: SettingsCache;
  /** The one way to a probe (probe-gate.ts). */
  probes: ProbeGate;
  /** Whether the user lets Skillpin read a site. */
  access: SiteAccess;
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
  /** Tells open pages that settings or trust state changed, and sets every open tab's badge from what is stored now. */
  announce(kind: StateChangeKind): Promise<void>;
  /** The last change of trust state or settings made through this worker (its start, at first). */
  stateChangedAt: number;
  /** The desktop mirror (desktop-sync.ts): told of every change that may change what is usable. */
  desktop: DesktopSync;
}

export function createContext(deps: BackgroundDeps): ServiceContext {
  const { platform, clock } = deps;
  const store = storeOnce(deps.openStore);
  const policy = policyCache(platform, {
    now: () => clock.now(),
    ...(deps.policyWaitMs === undefined ? {} : { waitMs: deps.policyWaitMs }),
    // A policy known at last, after callers were told it was not: pages and menus follow it.
    onArrived: () => {
      void ctx.announce('settings');
      void ctx.refreshMenusSafe();
      // The probes refused meanwhile (a page loaded while the policy was not known) run now.
      probes.retryPending();
      ctx.desktop.changed({ force: true });
    },
  });
  const settings = settingsCache(store, policy.get);
  const access = siteAccess(platform.permissions);
  let lastActiveUrl: string | null = null;

  const probes = createProbeGate({
    clock,
    policy: policy.get,
    settings: () => settings.effective(),
    privateRequest: (origin, tabId, sender) => ctx.privateRequest(origin, tabId, sender),
    mayRead: (origin) => access.mayRead(origin),
    run: async (origin, opts) => {
      // The gate let this probe through with a known policy; one forgotten since (managed storage
      // changed) and not known again is not guessed: the administrator's pinned keys decide pins.
      const known = await policy.get();
      if (!known) return skippedReport(origin, 'policy-pending', clock.now());
      const managedKeys = known.pinnedKeys;
      const s = await store();
      const current = await settings.effective();
      const report = await probeOrigin(origin, { fetch: deps.fetch, guard: deps.guard, store: s, clock, settings: current, managedKeys }, { force: opts.force });
      await updateBadges(platform, report);
      await maybeNotify(platform, report);
      await ctx.refreshMenusSafe();
      // A content or key change, or a skill that stopped verifying, leaves the mirror at once.
      ctx.desktop.changed({ origin });
      // Open pages that show approved skills (the side panel's library, the options page) follow a
      // report that changes what an approved skill is: a content or key change found on a visit.
      if (report.skills.some((skill) => skill.approval.state !== 'none')) await ctx.announce('reports');
      return report;
    },
  });

  const announceChange = stateAnnouncer((k, v) => platform.setLocal(k, v), clock);
  const ctx: ServiceContext = {
    deps,
    platform,
    clock,
    store,
    policy: policy.get,
    forgetPolicy: policy.forget,
    policyProblem: policy.problem,
    policySettled: policy.settled,
    settings,
    probes,
    access,
    stateChangedAt: clock.now(),
    async announce(kind) {
      await announceChange(kind);
      // The badges follow too (not awaited: an answer to a page does not wait for every tab).
      void refreshBadges(ctx).catch(() => undefined);
    },
    async currentReport(origin) {
      const report = await (await store()).getReport(origin);
      // A report left in 'probing' by a stopped worker is stale: nothing is in flight here.
      if (report && report.state === 'probing' && !probes.inFlight(origin)) return null;
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
    // Built now, reading the context only when it first runs (its own part of it is this field).
    desktop: createDesktopSync(platform, clock, () => ctx),
  };
  return ctx;
}
