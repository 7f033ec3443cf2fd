// The report of an origin that was not probed because of the user's settings, and the empty report
// the other reports start from.
import type { OriginReport } from '../types';

/** A report of no source, no key and no skill. */
export function emptyReport(origin: string, state: OriginReport['state'], startedAt: number | null, finishedAt: number): OriginReport {
  return {
    reportVersion: 1,
    origin,
    state,
    skippedBecause: null,
    startedAt,
    finishedAt,
    publishes: false,
    sources: [],
    key: { state: 'none', pinned: null, offered: null, conflicting: null },
    skills: [],
    diagnostics: [],
    summary: { total: 0, usable: 0, approved: 0, warnings: 0, byStatus: {} },
  };
}

export function skippedReport(origin: string, reason: string, now: number): OriginReport {
  return { ...emptyReport(origin, 'skipped', null, now), skippedBecause: reason };
}
