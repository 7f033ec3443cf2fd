// After a change of trust state or settings, from any page (PRODUCT.md §5, issue 25 item 1), the
// badge of every open tab shows what is stored now: "not checked" when the settings exclude the
// site, else its stored report. A tab whose origin is being probed is left to that probe, which
// sets the badge when it ends (an approval, an import, a key decision probe the origins they touch).
import { httpOrigin } from '../chat/sites';
import { badgeFor, notCheckedTitle } from './badge';
import type { ServiceContext } from './context';

export async function refreshBadges(ctx: ServiceContext): Promise<void> {
  // Under a policy not known yet the gate decides nothing; the badges stay until it is.
  if ((await ctx.policy()) === null) return;
  const tabs = await ctx.platform.listTabs();
  for (const tab of tabs) {
    const origin = tab.url ? httpOrigin(tab.url) : null;
    if (!tab.url || !origin || ctx.probes.inFlight(origin)) continue;
    const decision = await ctx.probes.check('navigation', tab.url, { kind: 'tab', incognito: tab.incognito });
    const badge = decision.probe ? badgeFor(await ctx.currentReport(origin)) : { text: '', color: '#5b6470', title: notCheckedTitle(decision.reason) };
    await ctx.platform.setBadge(tab.id, badge).catch(() => undefined);
  }
}
