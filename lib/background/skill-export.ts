// "Export for upload" in the background: the ZIP is built from the approved bytes the hand-off
// gate releases (hand-off-gate.ts: approval, status, policy, lists, private windows; never a
// re-fetch), and every export is recorded in storage.local so that a later change marks the copy
// out of date.
import type { ExportStatus } from '../export/record';
import { isExportOutOfDate, parseExportRecords, withExport, type ExportRecord } from '../export/record';
import { exportSkill } from '../export/export-skill';
import type { SkillExportResult } from '../messages';
import type { OriginReport } from '../types';
import { encodeBase64 } from '../verify/base64';
import type { BackgroundPlatform } from './deps';
import type { WorkerState } from './worker-state';
import { release } from './hand-off-gate';
import { findSkill } from './opt-in-rules';
import type { SenderLike } from './sender';
import { t } from '../i18n';

/** The storage.local key of the export records (a list of ExportRecord). */
export const EXPORTS_KEY = 'skillpin:exports';

export async function readExportRecords(storage: Pick<BackgroundPlatform, 'getLocal'>): Promise<ExportRecord[]> {
  try {
    return parseExportRecords(await storage.getLocal(EXPORTS_KEY));
  } catch {
    // Unreadable records mark nothing out of date; exporting again writes a good list.
    return [];
  }
}

export async function exportForUpload(worker: WorkerState, origin: string, url: string, sender: SenderLike | null): Promise<SkillExportResult> {
  const no = (error: string, message: string, problems: string[] = []): SkillExportResult => ({ ok: false, error, message, problems });
  const r = await release(worker, { origin, url, sender, target: { kind: 'download' } });
  if (!r.ok) return r.error === 'not-approved' ? no('not-approved', t('err_export_not_approved')) : no(r.error, r.message);
  const now = worker.clock.now();
  const built = exportSkill(r.stored, r.approval, now);
  if (!built.ok)
    return no(
      built.error,
      built.message,
      built.problems.map((p) => p.message),
    );
  const { platform } = worker;
  // The record is written before the file is handed over: an export the user saves is never unrecorded.
  // An export from a private window is not recorded (nothing of a private window is written to disk).
  if (!r.private) await platform.setLocal(EXPORTS_KEY, withExport(await readExportRecords(platform), built.record));
  return { ok: true, filename: built.filename, zipBase64: encodeBase64(built.zip), size: built.zip.byteLength, exportedAt: now };
}

/** Every recorded export, compared with its origin's stored report. */
export async function exportStatuses(worker: WorkerState): Promise<ExportStatus[]> {
  const records = await readExportRecords(worker.platform);
  const reports = new Map<string, OriginReport | null>();
  const out: ExportStatus[] = [];
  for (const r of records) {
    if (!reports.has(r.origin)) reports.set(r.origin, await worker.currentReport(r.origin).catch(() => null));
    out.push({ ...r, outOfDate: isExportOutOfDate(r, findSkill(reports.get(r.origin) ?? null, r.url)) });
  }
  return out;
}

/** The exports a report makes out of date (for the change notification). */
export function outdatedExports(records: readonly ExportRecord[], report: OriginReport): ExportRecord[] {
  return records.filter((r) => r.origin === report.origin && isExportOutOfDate(r, findSkill(report, r.url)));
}
