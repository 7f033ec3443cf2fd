// The state one background worker keeps, shared by the handler slices (handlers/) and the
// browser events (events.ts): the store and the private windows' memory store, the settings and
// the policy with their caches, the probe scheduler, the menus, and when trust state or settings
// last changed here.
import { httpOrigin } from '../origin';
import { probeOrigin } from '../probe/probe-origin';
import { skippedReport } from '../report/skipped-report';
import { menuModel } from './menus';
import { createPrivateStore } from '../store/private-store';
import type { TrustStore } from '../store/store-api';
import { approvedView, maybeNotify } from './after-report';
import { showBadge, verdictBadges } from './badge';
import type { BackgroundDeps } from './deps';
import { policyCache, READY_POLICY_WAIT_MS } from './policy-cache';
import { isPrivateRequest } from './private-request';
import { createProbeGate } from './probe-gate';
import { siteAccess } from './site-access';
import { settingsCache } from './settings-cache';
import { approvedList } from './approved-list';
import { DesktopSyncer } from './desktop-sync';
import { changeMarker, stateAnnouncer } from './state-change';
import { keepReportSoon } from './kept-report';
import type { WorkerState } from './worker-state';

/**
 * The trust store, opened once per worker. After a failed open (a blocked upgrade, a storage
 * error) the next call tries again instead of keeping the failure.
 */
function storeOnce(open: () => Promise<TrustStore>): () => Promise<TrustStore> {
  let opening: Promise<TrustStore> | null = null;
  return () => {
    opening ??= open().catch((e: unknown) => {
      opening = null;
      throw e;
    });
    return opening;
  };
}

/**
 * After a change of trust state or settings, from any page (PRODUCT.md §5), the
 * badge of every open tab shows what is stored now: "not checked" when the settings exclude the
 * site, else its stored report. A tab whose origin is being probed is left to that probe, which
 * sets the badge when it ends (an approval, an import, a key decision probe the origins they touch).
 */
async function refreshBadges(worker: WorkerState): Promise<void> {
  // Under a policy not known yet the gate decides nothing; the badges stay until it is.
  if ((await worker.policy()) === null) return;
  const tabs = await worker.platform.listTabs();
  for (const tab of tabs) {
    const origin = tab.url ? httpOrigin(tab.url) : null;
    if (!tab.url || !origin || worker.probes.inFlight(origin, tab.incognito)) continue;
    const decision = await worker.probes.check('navigation', tab.url, { kind: 'tab', incognito: tab.incognito });
    // A private tab shows the private windows' report (lib/store/private-store.ts).
    await showBadge(worker.platform, tab.id, decision.probe ? { report: await worker.currentReport(origin, decision.private) } : { notChecked: decision.reason });
  }
}

export function createWorkerState(deps: BackgroundDeps): WorkerState {
  const { platform, clock } = deps;
  const store = storeOnce(deps.openStore);
  const privateStore = createPrivateStore(store);
  /** The one place that decides which store a request reaches: a private window's, or the normal one. */
  const storeOf = async (priv: boolean | undefined): Promise<TrustStore> => (priv ? privateStore : store());
  /** Notifications told about private windows' reports: remembered here, never in storage.local. */
  const privateNotified = new Set<string>();
  const policy = policyCache(platform, {
    now: () => clock.now(),
    ...(deps.policyWaitMs === undefined ? {} : { waitMs: deps.policyWaitMs }),
    // A policy known at last, after callers were told it was not: pages and menus follow it.
    onArrived: () => {
      void worker.announce('settings');
      void worker.refreshMenusSafe();
      // The probes refused meanwhile (a page loaded while the policy was not known) run now.
      probes.retryPending();
      worker.desktop.changed({ force: true });
    },
  });
  const settings = settingsCache(store, policy.get);
  const access = siteAccess(platform.permissions);

  const probes = createProbeGate({
    clock,
    policy: policy.get,
    settings: () => settings.effective(),
    privateRequest: (origin, tabId, sender) => worker.isPrivate(origin, sender, tabId),
    mayRead: (origin) => access.mayRead(origin),
    run: async (origin, opts) => {
      // The gate let this probe through with a known policy; one forgotten since (managed storage
      // changed) and not known again is not guessed: the administrator's pinned keys decide pins.
      const known = await policy.get();
      if (!known) return skippedReport(origin, 'policy-pending', clock.now());
      const managedKeys = known.pinnedKeys;
      const s = await storeOf(opts.private);
      // The report as it was, read before the probe's own write (what changed is announced below).
      const before = s.getReport(origin).catch(() => null);
      const current = await settings.effective();
      // The badge follows the verdict, not the write (corrected when the write changed it).
      const badges = verdictBadges(platform, opts.private);
      const report = await probeOrigin(origin, { fetch: deps.fetch, guard: deps.guard, store: s, clock, settings: current, managedKeys }, { force: opts.force, onVerdict: badges.tell });
      await badges.settle(report);
      // The popup paints the latest report before the worker answers it (kept-report.ts).
      keepReportSoon(platform, report, opts.private === true);
      await maybeNotify(platform, report, opts.private ? privateNotified : null);
      await worker.refreshMenusSafe();
      // A content or key change, or a skill that stopped verifying, leaves the mirror at once.
      worker.desktop.changed({ origin });
      // Open pages that show approved skills (the side panel's library, the options page) follow a
      // report that changes what they show of one (a content or key change found on a visit), and
      // only such a report: a probe that found nothing new refreshes no page and no badge.
      if (approvedView(await before) !== approvedView(report)) await worker.announce('reports');
      return report;
    },
  });

  const announceChange = stateAnnouncer((k, v) => platform.setLocal(k, v), clock);
  const worker: WorkerState = {
    deps,
    platform,
    clock,
    store,
    privateStore,
    storeOf,
    async isPrivate(origin, sender, tabId) {
      if (sender === null) return false;
      try {
        return isPrivateRequest(await platform.listTabs(), origin, tabId, sender);
      } catch {
        // Tabs that cannot be listed: the origin is treated as private (nothing of it is kept).
        return true;
      }
    },
    policy: policy.get,
    forgetPolicy: policy.forget,
    policyProblem: policy.problem,
    policySettled: () => policy.settled(deps.readyPolicyWaitMs ?? READY_POLICY_WAIT_MS),
    settings,
    probes,
    access,
    stateChanged: changeMarker(clock),
    async announce(kind) {
      await announceChange(kind);
      // The badges follow too (not awaited: an answer to a page does not wait for every tab).
      void refreshBadges(worker).catch(() => undefined);
    },
    async currentReport(origin, priv = false) {
      const report = await (await worker.storeOf(priv)).getReport(origin);
      // A report left in 'probing' by a stopped worker is stale: nothing is in flight here.
      if (report && report.state === 'probing' && !probes.inFlight(origin, priv)) return null;
      return report;
    },
    async refreshMenus() {
      const approved = await approvedList(worker);
      const { chatSites } = await settings.effective();
      await platform.updateMenus(menuModel(approved, chatSites));
    },
    // Menus are a convenience; a failure here must not break probing.
    refreshMenusSafe: () => worker.refreshMenus().catch(() => undefined),
    // Built now, reading the worker state only when it first runs (its own part of it is this field).
    desktop: new DesktopSyncer(platform, clock, () => worker),
  };
  return worker;
}
