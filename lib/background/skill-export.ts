// "Export for upload" in the background (issue 9): the ZIP is built from the stored verified bytes
// of an approved, current skill (the hand-off rules of PRODUCT.md §6 apply, never a re-fetch), and
// every export is recorded in storage.local so that a later change marks the copy out of date.
import type { ExportStatus } from '../export/record';
import { isExportOutOfDate, parseExportRecords, withExport, type ExportRecord } from '../export/record';
import { approvedBytes } from '../engine/approved-bytes';
import { exportSkill } from '../export/export-skill';
import type { SkillExportResult } from '../messages';
import type { TrustStore } from '../trust/store-api';
import type { OriginReport } from '../types';
import { encodeBase64 } from '../verify/base64';
import { findSkill, handOff } from './handoff-rules';

/** The storage.local key of the export records (a list of ExportRecord). */
export const EXPORTS_KEY = 'skillpin:exports';

export interface ExportDeps {
  store: TrustStore;
  /** The origin's report as the hand-off rules read it (the stored one, or a fresh probe). */
  report(origin: string): Promise<OriginReport | null>;
  getLocal(key: string): Promise<unknown>;
  setLocal(key: string, value: unknown): Promise<void>;
  now(): number;
}

export async function readExportRecords(getLocal: (key: string) => Promise<unknown>): Promise<ExportRecord[]> {
  try {
    return parseExportRecords(await getLocal(EXPORTS_KEY));
  } catch {
    // Unreadable records mark nothing out of date; exporting again writes a good list.
    return [];
  }
}

export async function exportForUpload(deps: ExportDeps, origin: string, url: string): Promise<SkillExportResult> {
  const no = (error: string, message: string, problems: string[] = []): SkillExportResult => ({ ok: false, error, message, problems });
  const allowed = handOff(findSkill(await deps.report(origin), url));
  if (!allowed.ok) {
    return allowed.error === 'not-approved' ? no('not-approved', 'Approve this skill before exporting it.') : no(allowed.error, allowed.message);
  }
  // The approved bytes only: for an archive, the files the approval binds, never a newer archive's.
  const stored = await approvedBytes(deps.store, allowed.approval);
  if (!stored) return no('bytes-missing', 'The verified bytes are not stored; re-check the site.');
  const now = deps.now();
  const built = exportSkill(stored, allowed.approval, now);
  if (!built.ok) return no(built.error, built.message, built.problems.map((p) => p.message));
  // The record is written before the file is handed over: an export the user saves is never unrecorded.
  await deps.setLocal(EXPORTS_KEY, withExport(await readExportRecords(deps.getLocal), built.record));
  return { ok: true, filename: built.filename, zipBase64: encodeBase64(built.zip), size: built.zip.byteLength, exportedAt: now };
}

/** Every recorded export, compared with its origin's stored report. */
export async function exportStatuses(getLocal: (key: string) => Promise<unknown>, report: (origin: string) => Promise<OriginReport | null>): Promise<ExportStatus[]> {
  const records = await readExportRecords(getLocal);
  const reports = new Map<string, OriginReport | null>();
  const out: ExportStatus[] = [];
  for (const r of records) {
    if (!reports.has(r.origin)) reports.set(r.origin, await report(r.origin).catch(() => null));
    out.push({ ...r, outOfDate: isExportOutOfDate(r, findSkill(reports.get(r.origin) ?? null, r.url)) });
  }
  return out;
}

/** The exports a report makes out of date (for the change notification). */
export function outdatedExports(records: readonly ExportRecord[], report: OriginReport): ExportRecord[] {
  return records.filter((r) => r.origin === report.origin && isExportOutOfDate(r, findSkill(report, r.url)));
}
