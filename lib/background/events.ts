// The browser's events as the background answers them: navigations (probe after the page has
// loaded, unless a report is still current), tab switches, the revalidation alarm, managed
// storage changes and notification clicks. Context-menu clicks are in menu-click.ts.
import { shouldProbe } from '../scheduler/should-probe';
import type { OriginReport } from '../types';
import { badgeFor, notCheckedTitle } from './badge';
import type { ServiceContext } from './context';
import { httpOrigin } from '../chat/sites';
import type { BackgroundService } from './deps';

export const REVALIDATE_ALARM = 'skillpin:revalidate';
/** Revisits within this window reuse the last report (see isQuiet). */
export const QUIET_REVISIT_MS = 60_000;

type Events = Pick<BackgroundService, 'onNavigation' | 'onTabActivated' | 'onAlarm' | 'onManagedChanged' | 'onNotificationClick'>;

export function createEvents(ctx: ServiceContext): Events {
  const { platform, scheduler, clock } = ctx;

  /**
   * A report finished less than a minute ago, after the last change of trust state or
   * settings in this worker, is still exactly what a probe would produce: every cache
   * lifetime is at least 5 minutes and every backoff at least 1 minute, so that probe would
   * make no request. Skipping it spares the page's CPU on quick revisits.
   */
  function isQuiet(report: OriginReport): boolean {
    if (report.state !== 'done' || report.finishedAt === null) return false;
    if (report.finishedAt < ctx.stateChangedAt) return false;
    const age = clock.now() - report.finishedAt;
    return age >= 0 && age < QUIET_REVISIT_MS;
  }

  return {
    async onNavigation(tabId, url, incognito) {
      const settings = await ctx.settings.effective();
      const decision = shouldProbe(url, settings, { incognito });
      if (!decision.probe) {
        await platform.setBadge(tabId, { text: '', color: '#5b6470', title: notCheckedTitle(decision.reason) }).catch(() => undefined);
        return null;
      }
      const known = await ctx.currentReport(decision.origin);
      if (known) await platform.setBadge(tabId, badgeFor(known)).catch(() => undefined);
      if (known && isQuiet(known)) return known;
      // Off the page's path: nothing is fetched, hashed or written before the page has loaded.
      if (ctx.deps.loadGate && !(await ctx.deps.loadGate.afterLoad(tabId, url))) return known;
      return scheduler.probe(decision.origin, { force: false });
    },
    async onTabActivated(tabId, url) {
      const origin = url ? httpOrigin(url) : null;
      const report = origin ? await ctx.currentReport(origin) : null;
      await platform.setBadge(tabId, badgeFor(report)).catch(() => undefined);
      await ctx.refreshMenus(url).catch(() => undefined);
    },
    async onAlarm(name) {
      if (name !== REVALIDATE_ALARM) return;
      const s = await ctx.store();
      const settings = await ctx.settings.effective();
      if (settings.paused) return;
      const origins = [...new Set((await s.listApprovals()).map((a) => a.origin))];
      for (const origin of origins) {
        await scheduler.probe(origin, { force: false }).catch(() => undefined);
      }
    },
    async onManagedChanged() {
      ctx.forgetPolicy();
      // Reports made under the old policy are not quiet any more (isQuiet): the next visit re-probes.
      ctx.stateChangedAt = clock.now();
      await ctx.refreshMenusSafe();
      // Open pages follow it like any other settings change (the options page marks managed fields).
      await ctx.announce('settings');
    },
    onNotificationClick(notificationId) {
      if (!notificationId.startsWith('skillpin-origin|')) return null;
      const origin = notificationId.slice('skillpin-origin|'.length);
      return httpOrigin(origin) === origin ? origin : null;
    },
  };
}
