// The toolbar badge for a tab: the number of usable skills, or a warning.
import { WARNING_STATUSES, type OriginReport } from '../types';

export interface Badge {
  text: string;
  color: string;
  title: string;
}

export const NO_BADGE: Badge = { text: '', color: '#5b6470', title: 'Skillpin' };

const WARNING_KEY_STATES = new Set(['changed', 'conflict', 'stopped-signing']);

export function badgeFor(report: OriginReport | null): Badge {
  if (!report) return NO_BADGE;
  if (report.state === 'probing' && report.skills.length === 0) return { text: '…', color: '#5b6470', title: 'Skillpin: checking this site' };
  if (report.state === 'skipped') return { ...NO_BADGE, title: `Skillpin: not checked (${report.skippedBecause ?? 'skipped'})` };
  const keyWarning = WARNING_KEY_STATES.has(report.key.state);
  const warnings = report.skills.filter((s) => WARNING_STATUSES.includes(s.status)).length;
  if (keyWarning || warnings > 0) {
    const what = keyWarning ? 'the publisher key changed' : `${warnings} skill${warnings === 1 ? '' : 's'} need attention`;
    return { text: '!', color: '#c62828', title: `Skillpin: warning, ${what}` };
  }
  const usable = report.summary.usable;
  if (usable === 0) {
    if (report.skills.length > 0) return { text: '0', color: '#5b6470', title: `Skillpin: ${report.skills.length} skills listed, none usable` };
    return NO_BADGE;
  }
  return {
    text: usable > 99 ? '99+' : String(usable),
    color: '#2e7d32',
    title: `Skillpin: ${usable} usable skill${usable === 1 ? '' : 's'}`,
  };
}
