// The last report of each origin the worker answered or finished, kept in session storage
// (memory only, cleared when the browser closes, readable by the extension's own pages and not by
// content scripts) so that the popup can paint it before the worker answers. It is a picture, not
// an answer: the popup shows it inert until the worker's own answer replaces it, and every action
// still goes to the worker and through its gates (components/popup/use-origin-report.ts).
// A private window's report is never kept here. Only the last KEPT_MAX origins are kept: session
// storage has a small quota that the policy and the site-access notes share, so copies of every
// site visited in a long session must not fill it.
import type { OriginReport } from '../types';
import type { BackgroundPlatform } from './deps';

const PREFIX = 'skillpin:kept-report:';
/** The origins that have a kept report, oldest first. */
const ORDER_KEY = 'skillpin:kept-reports';
export const KEPT_MAX = 16;

type SessionIO = Pick<BackgroundPlatform, 'setSession' | 'getSession'>;

/** The session-storage key of an origin's kept report. */
export const keptReportKey = (origin: string): string => PREFIX + origin;

/** A report the popup may paint: a finished one, of the origin asked for. */
export function keptReportOf(value: unknown, origin: string): OriginReport | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Partial<OriginReport>;
  if (r.origin !== origin || !Array.isArray(r.skills) || typeof r.key !== 'object' || r.key === null) return null;
  if (r.state === 'probing' || r.state === 'idle' || typeof r.state !== 'string') return null;
  return value as OriginReport;
}

/**
 * Keeps `report` (a normal window's) for the popup; a report that is not finished is not kept.
 * A write that fails (the session quota) drops the origin's old copy, so none older stays.
 */
export function keepReport(platform: SessionIO, report: OriginReport | null, priv: boolean): Promise<void> {
  if (priv || !platform.setSession || !report || keptReportOf(report, report.origin) === null) return Promise.resolve();
  // One keep at a time, so two probes ending together do not each write an order without the other.
  const next = queue.then(() => keepNow(platform, report));
  queue = next.catch(() => undefined);
  return next;
}

let queue: Promise<void> = Promise.resolve();

async function keepNow(platform: SessionIO, report: OriginReport): Promise<void> {
  const set = (key: string, value: unknown) => platform.setSession?.(key, value) ?? Promise.resolve();
  const key = keptReportKey(report.origin);
  const stored = await platform.getSession?.(ORDER_KEY).catch(() => undefined);
  const order = Array.isArray(stored) ? stored.filter((o): o is string => typeof o === 'string' && o !== report.origin) : [];
  order.push(report.origin);
  const dropped = order.splice(0, Math.max(0, order.length - KEPT_MAX));
  for (const origin of dropped) await set(keptReportKey(origin), null).catch(() => undefined);
  await set(ORDER_KEY, order).catch(() => undefined);
  try {
    await set(key, report);
  } catch {
    await set(key, null).catch(() => undefined);
  }
}

/** Drops an origin's kept report (the site is no longer readable: nothing of it is painted early). */
export async function forgetKeptReport(platform: Pick<BackgroundPlatform, 'setSession'>, origin: string): Promise<void> {
  await platform.setSession?.(keptReportKey(origin), null).catch(() => undefined);
}

/** keepReport after the current answer has gone: copying a long report must not delay it. */
export function keepReportSoon(platform: SessionIO, report: OriginReport | null, priv: boolean): void {
  setTimeout(() => void keepReport(platform, report, priv), 0);
}
