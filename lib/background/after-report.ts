// What follows a finished probe besides the report itself: the badge of every tab showing the
// origin, and at most one notification per change the user should know of.
import type { OriginReport } from '../types';
import { badgeFor } from './badge';
import { httpOrigin } from '../origin';
import type { BackgroundPlatform } from './deps';
import { notificationFor } from './notify';
import { outdatedExports, readExportRecords } from './skill-export';

const NOTIFIED_KEY = 'skillpin:notified';

export async function updateBadges(platform: BackgroundPlatform, report: OriginReport): Promise<void> {
  const tabs = await platform.listTabs();
  const badge = badgeFor(report);
  await Promise.all(tabs.filter((t) => t.url && httpOrigin(t.url) === report.origin).map((t) => platform.setBadge(t.id, badge).catch(() => undefined)));
}

export async function maybeNotify(platform: BackgroundPlatform, report: OriginReport): Promise<void> {
  const plan = notificationFor(report, outdatedExports(await readExportRecords((k) => platform.getLocal(k)), report));
  if (!plan) return;
  const stored = await platform.getLocal(NOTIFIED_KEY);
  const seen = Array.isArray(stored) ? stored.filter((x): x is string => typeof x === 'string') : [];
  if (seen.includes(plan.key)) return;
  await platform.notify(`skillpin-origin|${report.origin}`, plan.title, plan.message);
  await platform.setLocal(NOTIFIED_KEY, [...seen, plan.key].slice(-500));
}
