// The report of an origin that was not probed because of the user's settings.
import type { OriginReport } from '../types';

export function skippedReport(origin: string, reason: string, now: number): OriginReport {
  return {
    reportVersion: 1,
    origin,
    state: 'skipped',
    skippedBecause: reason,
    startedAt: null,
    finishedAt: now,
    publishes: false,
    sources: [],
    key: { state: 'none', pinned: null, offered: null, conflicting: null },
    skills: [],
    diagnostics: [],
    summary: { total: 0, usable: 0, approved: 0, warnings: 0, byStatus: {} },
  };
}
