// What follows a finished probe besides the report itself and the badges (badge.ts): at most one
// notification per change the user should know of, and whether the pages that follow approved skills
// should look again.
import type { OriginReport } from '../types';
import type { BackgroundPlatform } from './deps';
import { notificationFor } from './notify';
import { outdatedExports, readExportRecords } from './skill-export';

const NOTIFIED_KEY = 'skillpin:notified';

/**
 * At most one notification per change. `memory`: the notifications told about private windows'
 * reports, kept there and never in storage.local (null: a normal window's, kept in storage.local).
 */
export async function maybeNotify(platform: BackgroundPlatform, report: OriginReport, memory: Set<string> | null = null): Promise<void> {
  const plan = notificationFor(report, outdatedExports(await readExportRecords(platform), report));
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
 * lastSeen) are left out: a probe that found nothing new changes none of it. A probe changed what
 * those pages show when the view of the report stored before it differs from the view of its own.
 */
export function approvedView(report: OriginReport | null): string {
  if (!report) return '';
  const skills = report.skills
    .filter((s) => s.approval.state !== 'none')
    .map((s) => [s.id, s.name, s.description, s.status, s.statusCode, s.approval, s.actual, s.archive?.filesDigest ?? null, s.contextSize, s.tokens, s.signature.state]);
  if (skills.length === 0) return '';
  const fp = (k: { fingerprint: string } | null): string | null => k?.fingerprint ?? null;
  return JSON.stringify([report.state, report.key.state, fp(report.key.pinned), fp(report.key.offered), skills]);
}
