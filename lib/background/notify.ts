// Decides when a pin or content change deserves a system notification: only on
// origins where the user approved skills, once per distinct change.
import { NAME_MAX, display } from '../text/display';
import type { ExportRecord } from '../export/record';
import type { OriginReport } from '../types';

export interface NotificationPlan {
  /** Stable per change, so the same change never notifies twice. */
  key: string;
  title: string;
  message: string;
}

/** The sentence added when the change makes a copy exported for upload out of date (issue 9). */
function exportNote(outdated: readonly ExportRecord[]): string {
  if (outdated.length === 0) return '';
  const names = display(outdated.map((r) => display(r.name, NAME_MAX)).join(', '), 3 * NAME_MAX);
  return ` The copy of ${names} you exported for upload is out of date; export it again after review.`;
}

/** `outdated`: the recorded exports of this origin the report makes out of date. */
export function notificationFor(report: OriginReport, outdated: readonly ExportRecord[] = []): NotificationPlan | null {
  const hasApprovals = report.skills.some((s) => s.approval.state !== 'none');
  if (!hasApprovals) return null;
  const k = report.key;
  if (k.state === 'changed' || k.state === 'conflict' || k.state === 'stopped-signing') {
    const offered = k.offered?.fingerprint ?? 'none';
    const conflicting = k.conflicting?.fingerprint ?? '';
    let message =
      k.state === 'stopped-signing'
        ? `${report.origin} stopped signing its skills. Your approvals are suspended until you decide.`
        : `${report.origin} now signs with a different key. Your approvals are suspended until you decide.`;
    message += exportNote(outdated);
    return { key: `key|${report.origin}|${k.state}|${k.pinned?.fingerprint ?? ''}|${offered}|${conflicting}`, title: 'Skillpin: publisher key changed', message };
  }
  const changed = report.skills.filter((s) => s.status === 'content-changed');
  if (changed.length > 0) {
    const digests = changed.map((s) => `${s.url}=${s.actual?.lf ?? ''}`).sort().join(',');
    const names = display(changed.map((s) => display(s.name, NAME_MAX)).join(', '), 3 * NAME_MAX);
    return {
      key: `content|${report.origin}|${digests}`,
      title: 'Skillpin: approved skill changed',
      message: `${names} on ${report.origin} changed since you approved it. Review the changes before using it again.${exportNote(outdated)}`,
    };
  }
  return null;
}
