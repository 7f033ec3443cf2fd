// The toolbar badge for a tab: the number of usable skills, or a warning. Titles come from
// the locale files (lib/i18n); the extension's i18n API has no plural rules, so counts of one
// have their own messages. The only module that writes a badge (test/unit/background/badge-writers.test.ts):
// a tab's report, a tab that was not checked, every tab of an origin after a probe.
import { t, type MessageKey } from '../i18n';
import { httpOrigin } from '../origin';
import type { GateReason } from './probe-gate';
import { WARNING_STATUSES, type OriginReport } from '../types';

export interface Badge {
  text: string;
  color: string;
  title: string;
}

export const NO_BADGE: Badge = { text: '', color: '#5b6470', title: 'Skillpin' };

const WARNING_KEY_STATES = new Set(['changed', 'conflict', 'stopped-signing']);

const REASON: Record<GateReason, MessageKey> = {
  'not-http': 'reason_not_http',
  'policy-pending': 'reason_policy_pending',
  'no-site-access': 'reason_no_site_access',
  paused: 'reason_paused',
  'private-window': 'reason_private_window',
  'deny-listed': 'reason_deny_listed',
  'not-allow-listed': 'reason_not_allow_listed',
};

/** The title of a tab that was not checked; an unknown reason is shown as its code. */
export function notCheckedTitle(reason: string | null): string {
  const key = reason === null ? 'reason_skipped' : REASON[reason as GateReason];
  return t('badge_not_checked', key ? t(key) : (reason ?? ''));
}

export function badgeFor(report: OriginReport | null): Badge {
  if (!report) return NO_BADGE;
  if (report.state === 'probing' && report.skills.length === 0) return { text: '…', color: '#5b6470', title: t('badge_checking') };
  if (report.state === 'skipped') return { ...NO_BADGE, title: notCheckedTitle(report.skippedBecause) };
  const keyWarning = WARNING_KEY_STATES.has(report.key.state);
  const warnings = report.skills.filter((s) => WARNING_STATUSES.includes(s.status)).length;
  if (keyWarning || warnings > 0) {
    const title = keyWarning ? t('badge_key_changed') : warnings === 1 ? t('badge_attention_one') : t('badge_attention_many', warnings);
    return { text: '!', color: '#c62828', title };
  }
  const usable = report.summary.usable;
  if (usable === 0) return report.skills.length > 0 ? { text: '0', color: '#5b6470', title: t('badge_none_usable', report.skills.length) } : NO_BADGE;
  return {
    text: usable > 99 ? '99+' : String(usable),
    color: '#2e7d32',
    title: usable === 1 ? t('badge_usable_one') : t('badge_usable_many', usable),
  };
}

/** What writes a badge: the platform's setBadge and its open tabs. */
export interface BadgeWriter {
  setBadge(tabId: number, badge: Badge): Promise<void>;
  listTabs(): Promise<{ id: number; url: string | null; incognito: boolean }[]>;
}

/** One tab's badge: its origin's report, or "not checked" and why. Never throws. */
export async function showBadge(platform: BadgeWriter, tabId: number, of: { report: OriginReport | null } | { notChecked: string | null }): Promise<void> {
  const badge = 'report' in of ? badgeFor(of.report) : { ...NO_BADGE, title: notCheckedTitle(of.notChecked) };
  await platform.setBadge(tabId, badge).catch(() => undefined);
}

/** The badge of every tab showing the origin, in private windows (`priv`) or in normal ones: a report is only about the windows it was made for. */
export async function updateBadges(platform: BadgeWriter, report: OriginReport, priv = false): Promise<void> {
  const tabs = await platform.listTabs();
  const showing = tabs.filter((tab) => tab.url && httpOrigin(tab.url) === report.origin && tab.incognito === priv);
  await Promise.all(showing.map((tab) => showBadge(platform, tab.id, { report })));
}

/**
 * The badge from a probe's verdict as soon as it is known, before the report is written
 * (ProbeOptions.onVerdict), and again when the probe has finished (its verdict may have changed
 * with the write: a first pin that could not be written, a pin changed meanwhile; a tab may have
 * come to the origin since). The updates run one after another, so a later verdict is never
 * overtaken by an earlier one.
 */
export function verdictBadges(platform: BadgeWriter, priv: boolean): { tell(report: OriginReport): void; settle(report: OriginReport): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const show = (report: OriginReport): Promise<void> => {
    chain = chain.catch(() => undefined).then(() => updateBadges(platform, report, priv));
    return chain;
  };
  return { tell: (report) => void show(report).catch(() => undefined), settle: show };
}
