// After a change of trust state or settings, from any page (PRODUCT.md §5), the
// badge of every open tab shows what is stored now: "not checked" when the settings exclude the
// site, else its stored report. A tab whose origin is being probed is left to that probe, which
// sets the badge when it ends (an approval, an import, a key decision probe the origins they touch).
import { httpOrigin } from '../origin';
import { showBadge } from './badge';
import type { WorkerState } from './worker-state';

export async function refreshBadges(worker: WorkerState): Promise<void> {
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
