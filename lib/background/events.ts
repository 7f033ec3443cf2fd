// The browser's events as the background answers them: navigations (probe once the page has
// loaded, unless a report is still current: page-events.ts), closed tabs, the revalidation alarm,
// managed storage changes, context-menu clicks and notification clicks.
import type { OriginReport } from '../types';
import { approvedList } from './approved-list';
import { showBadge } from './badge';
import type { WorkerState } from './worker-state';
import { httpOrigin } from '../origin';
import type { BackgroundService } from './deps';
import { contextFor, insertSkill } from './hand-off-routes';
import { isCopyItemId, parseInsertItemId } from './menus';
import type { SenderLike } from './sender';

export const REVALIDATE_ALARM = 'skillpin:revalidate';
/** Revisits within this window reuse the last report (see isQuiet). */
export const QUIET_REVISIT_MS = 60_000;

type Events = Pick<BackgroundService, 'onNavigation' | 'onTabClosed' | 'onAlarm' | 'onManagedChanged' | 'onAccessChanged' | 'onMenuClick' | 'onNotificationClick'>;

export function createEvents(worker: WorkerState): Events {
  const { platform, probes, clock } = worker;

  /**
   * A report finished less than a minute ago, after the last change of trust state or
   * settings in this worker, is still exactly what a probe would produce: every cache
   * lifetime is at least 5 minutes and every backoff at least 1 minute, so that probe would
   * make no request. Skipping it spares the page's CPU on quick revisits.
   */
  function isQuiet(report: OriginReport): boolean {
    if (report.state !== 'done' || report.finishedAt === null) return false;
    if (report.finishedAt < worker.stateChanged.at()) return false;
    const age = clock.now() - report.finishedAt;
    return age >= 0 && age < QUIET_REVISIT_MS;
  }

  const events: Events = {
    async onNavigation(tabId, url, incognito) {
      // Called once the page has loaded (page-events.ts): nothing of a navigation's handling (the
      // gate's checks, the stored report read, the badge, the probe) runs while it loads.
      // A toolbar click's grant ends when its tab has left the origin.
      worker.access.navigated(tabId, url);
      const subject = { kind: 'tab', incognito } as const;
      // The stored report is read beside the gate's checks (a read asks nothing of the origin; it is
      // used only when the gate lets the probe through, from the store the gate's answer names).
      const origin = httpOrigin(url);
      const stored = origin ? worker.currentReport(origin, incognito).catch(() => null) : Promise.resolve(null);
      // Refused only because the policy was not known yet: handled again, badge and all, once it is.
      const decision = await probes.check('navigation', url, subject, () => events.onNavigation(tabId, url, incognito));
      if (!decision.probe) {
        await showBadge(platform, tabId, { notChecked: decision.reason });
        return null;
      }
      const known = decision.origin === origin && decision.private === incognito ? await stored : await worker.currentReport(decision.origin, decision.private);
      if (known) await showBadge(platform, tabId, { report: known });
      if (known && isQuiet(known)) return known;
      return probes.probe('navigation', url, subject);
    },
    onTabClosed(tabId) {
      worker.access.tabClosed(tabId);
      // The last private tab closed: what the private windows stored is forgotten with them.
      void platform
        .listTabs()
        .then((tabs) => {
          if (!tabs.some((t) => t.incognito)) worker.privateStore.clear();
        })
        .catch(() => undefined);
    },
    async onAlarm(name) {
      if (name !== REVALIDATE_ALARM) return;
      const origins = new Set((await (await worker.store()).listApprovals()).map((a) => a.origin));
      for (const origin of origins) await probes.probe('revalidate', origin, { kind: 'background' }).catch(() => undefined);
      // Once an hour the mirror is checked whole, so a copy changed or removed on disk is put back.
      worker.desktop.changed({ force: true });
    },
    async onManagedChanged() {
      worker.forgetPolicy();
      // Reports made under the old policy are not quiet any more (isQuiet): the next visit re-probes.
      worker.stateChanged.mark();
      await worker.refreshMenusSafe();
      // Open pages follow it like any other settings change (the options page marks managed fields).
      await worker.announce('settings');
      // A policy that now forbids a mirrored skill removes it (once the new policy is read).
      worker.desktop.changed({ force: true });
    },
    async onAccessChanged(granted) {
      worker.access.changed();
      await worker.announce('settings');
      // nativeMessaging granted or removed: the mirror starts, or stops sending.
      worker.desktop.changed({ force: true });
      if (granted.length === 0 || !platform.activeTabs) return;
      // Access just granted (the popup's "Allow", or the browser's own menu): the site in front is probed now.
      const tabs = await platform.activeTabs().catch(() => []);
      for (const tab of tabs) if (tab.url) await probes.probe('access-granted', tab.url, { kind: 'tab', incognito: tab.incognito }).catch(() => undefined);
    },
    // "Copy skill context" copies every usable approved skill of the page's origin; an "Insert skill
    // context" item inserts one skill into the chat frame it was opened in. Both take their bytes
    // from the hand-off gate (hand-off-routes.ts), like every other path.
    async onMenuClick(menuItemId, tab, frameId = 0) {
      // The menu was used in this tab: the private-window rule follows that tab's flag.
      const sender: SenderLike = tab ? { tab } : {};
      if (isCopyItemId(menuItemId)) {
        // The page's own origin, whichever copy item it showed (an item shows on every port of its host).
        const origin = tab?.url ? httpOrigin(tab.url) : null;
        if (!origin) return false;
        const approved = (await approvedList(worker)).filter((a) => a.origin === origin && a.usable);
        const blocks: string[] = [];
        for (const a of approved) {
          const context = await contextFor(worker, a.origin, a.url, sender, { kind: 'clipboard' });
          if (context.ok) blocks.push(context.context);
        }
        if (blocks.length === 0) return false;
        return platform.copyText(blocks.join('\n\n'));
      }
      const item = parseInsertItemId(menuItemId);
      if (item === null || tab?.id === undefined) return false;
      return (await insertSkill(worker, { origin: item.origin, url: item.url, frame: { tabId: tab.id, frameId }, expectedOrigin: null }, sender)).ok;
    },
    onNotificationClick(notificationId) {
      if (!notificationId.startsWith('skillpin-origin|')) return null;
      const origin = notificationId.slice('skillpin-origin|'.length);
      return httpOrigin(origin) === origin ? origin : null;
    },
  };
  return events;
}
