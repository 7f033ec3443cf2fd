// Decides when a pin or content change deserves a system notification: only on
// origins where the user approved skills, once per distinct change.
import { t } from '../i18n';
import { NAME_MAX, display } from '../render/display';
import type { ExportRecord } from '../export/record';
import type { OriginReport } from '../types';

export interface NotificationPlan {
  /** Stable per change, so the same change never notifies twice. */
  key: string;
  title: string;
  message: string;
}

/** The sentence added when the change makes a copy exported for upload out of date. */
function exportNote(outdated: readonly ExportRecord[]): string {
  if (outdated.length === 0) return '';
  return ` ${t('notify_export_outdated', display(outdated.map((r) => display(r.name, NAME_MAX)).join(', '), 3 * NAME_MAX))}`;
}

/** `outdated`: the recorded exports of this origin the report makes out of date. */
export function notificationFor(report: OriginReport, outdated: readonly ExportRecord[] = []): NotificationPlan | null {
  if (!report.skills.some((s) => s.approval.state !== 'none')) return null;
  const k = report.key;
  if (k.state === 'changed' || k.state === 'conflict' || k.state === 'stopped-signing') {
    const message = (k.state === 'stopped-signing' ? t('notify_key_stopped', report.origin) : t('notify_key_changed', report.origin)) + exportNote(outdated);
    return { key: `key|${report.origin}|${k.state}|${k.pinned?.fingerprint ?? ''}|${k.offered?.fingerprint ?? 'none'}|${k.conflicting?.fingerprint ?? ''}`, title: t('notify_key_title'), message };
  }
  const changed = report.skills.filter((s) => s.status === 'content-changed');
  if (changed.length > 0) {
    // An archive's file set is part of the content: a second swap of its files is a second change.
    const digests = changed
      .map((s) => `${s.url}=${s.actual?.lf ?? ''}${s.archive?.filesDigest ? `+${s.archive.filesDigest}` : ''}`)
      .sort()
      .join(',');
    const names = display(changed.map((s) => display(s.name, NAME_MAX)).join(', '), 3 * NAME_MAX);
    return {
      key: `content|${report.origin}|${digests}`,
      title: t('notify_content_title'),
      message: t('notify_content_changed', names, report.origin) + exportNote(outdated),
    };
  }
  return null;
}
