// What follows a finished probe besides the report itself: the badge of every tab showing the
// origin, and at most one notification per change the user should know of.
import type { OriginReport } from '../types';
import { badgeFor } from './badge';
import { httpOrigin } from '../origin';
import type { BackgroundPlatform } from './deps';
import { notificationFor } from './notify';
import { outdatedExports, readExportRecords } from './skill-export';

const NOTIFIED_KEY = 'skillpin:notified';

/** The badge of every tab showing the origin, in private windows (`priv`) or in normal ones: a report is only about the windows it was made for. */
export async function updateBadges(platform: BackgroundPlatform, report: OriginReport, priv = false): Promise<void> {
  const tabs = await platform.listTabs();
  const badge = badgeFor(report);
  const showing = tabs.filter((t) => t.url && httpOrigin(t.url) === report.origin && t.incognito === priv);
  await Promise.all(showing.map((t) => platform.setBadge(t.id, badge).catch(() => undefined)));
}

/**
 * The badge from a probe's verdict as soon as it is known, before the report is written
 * (ProbeOptions.onVerdict), and again when the probe has finished (its verdict may have changed
 * with the write: a first pin that could not be written, a pin changed meanwhile; a tab may have
 * come to the origin since). The updates run one after another, so a later verdict is never
 * overtaken by an earlier one.
 */
export function verdictBadges(platform: BackgroundPlatform, priv: boolean): { tell(report: OriginReport): void; settle(report: OriginReport): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const show = (report: OriginReport): Promise<void> => {
    chain = chain.catch(() => undefined).then(() => updateBadges(platform, report, priv));
    return chain;
  };
  return {
    tell(report) {
      show(report).catch(() => undefined);
    },
    settle: show,
  };
}

/**
 * At most one notification per change. `memory`: the notifications told about private windows'
 * reports, kept there and never in storage.local (null: a normal window's, kept in storage.local).
 */
export async function maybeNotify(platform: BackgroundPlatform, report: OriginReport, memory: Set<string> | null = null): Promise<void> {
  const plan = notificationFor(report, outdatedExports(await readExportRecords((k) => platform.getLocal(k)), report));
  if (!plan) return;
  if (memory) {
    if (memory.has(plan.key)) return;
    memory.add(plan.key);
    await platform.notify(`skillpin-origin|${report.origin}`, plan.title, plan.message);
    return;
  }
  const stored = await platform.getLocal(NOTIFIED_KEY);
  const seen = Array.isArray(stored) ? stored.filter((x): x is string => typeof x === 'string') : [];
  if (seen.includes(plan.key)) return;
  await platform.notify(`skillpin-origin|${report.origin}`, plan.title, plan.message);
  await platform.setLocal(NOTIFIED_KEY, [...seen, plan.key].slice(-500));
}

/**
 * What the pages that follow approved skills (the side panel's library, the options page) show of
 * one origin's report: each approved or suspended skill's name, description, status, approval,
 * content digests and size, and the origin's key by fingerprint. Times (finishedAt, a pin's
 * lastSeen) are left out: a probe that found nothing new changes none of it.
 */
function approvedView(report: OriginReport | null): string {
  if (!report) return '';
  const skills = report.skills
    .filter((s) => s.approval.state !== 'none')
    .map((s) => [s.id, s.name, s.description, s.status, s.statusCode, s.approval, s.actual, s.archive?.filesDigest ?? null, s.contextSize, s.tokens, s.signature.state]);
  if (skills.length === 0) return '';
  const fp = (k: { fingerprint: string } | null): string | null => k?.fingerprint ?? null;
  return JSON.stringify([report.state, report.key.state, fp(report.key.pinned), fp(report.key.offered), skills]);
}

/** Whether a probe changed what those pages show (`before`: the origin's report as stored before it). */
export function approvedViewChanged(before: OriginReport | null, after: OriginReport): boolean {
  return approvedView(before) !== approvedView(after);
}
