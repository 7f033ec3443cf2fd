// The report kept for the popup in session storage (lib/background/kept-report.ts): only a
// finished report of a normal window, read back only for the origin asked for, and a failed write
// leaves no older copy behind.
import { describe, expect, it } from 'vitest';
import { forgetKeptReport, KEPT_MAX, keepReport, keptReportKey, keptReportOf } from '../../../lib/background/kept-report';
import { ORIGIN, makeReport, makeSkill } from '../../fixtures/ui/reports';

function session(failWrites = false) {
  const map = new Map<string, unknown>();
  return {
    map,
    getSession: async (key: string) => structuredClone(map.get(key)),
    setSession: async (key: string, value: unknown) => {
      if (failWrites && value !== null) throw new Error('QUOTA_BYTES quota exceeded');
      map.set(key, structuredClone(value));
    },
  };
}

describe('kept reports', () => {
  it('keeps a finished report of a normal window under its origin, and reads it back for that origin only', async () => {
    const s = session();
    const report = makeReport([makeSkill()]);
    await keepReport(s, report, false);
    const kept = s.map.get(keptReportKey(ORIGIN));
    expect(kept).toEqual(report);
    expect(keptReportOf(kept, ORIGIN)).toEqual(report);
    expect(keptReportOf(kept, 'https://other.example')).toBeNull();
  });

  it('keeps nothing of a private window, of a probe still running, or of no report', async () => {
    const s = session();
    await keepReport(s, makeReport([makeSkill()]), true);
    await keepReport(s, makeReport([], { state: 'probing' }), false);
    await keepReport(s, makeReport([], { state: 'idle' }), false);
    await keepReport(s, null, false);
    expect(s.map.size).toBe(0);
  });

  it('a write that fails drops the older copy instead of leaving it', async () => {
    const s = session(true);
    s.map.set(keptReportKey(ORIGIN), makeReport([makeSkill()]));
    await keepReport(s, makeReport([makeSkill({ status: 'content-changed' })]), false);
    expect(s.map.get(keptReportKey(ORIGIN))).toBeNull();
    expect(keptReportOf(null, ORIGIN)).toBeNull();
  });

  it('forgets an origin on request, and reads nothing that is not a report', async () => {
    const s = session();
    await keepReport(s, makeReport([makeSkill()]), false);
    await forgetKeptReport(s, ORIGIN);
    expect(keptReportOf(s.map.get(keptReportKey(ORIGIN)), ORIGIN)).toBeNull();
    for (const bad of [undefined, 'x', 42, { origin: ORIGIN }, { origin: ORIGIN, skills: [], key: null, state: 'done' }]) expect(keptReportOf(bad, ORIGIN)).toBeNull();
  });

  it('keeps the last KEPT_MAX origins only, dropping the oldest copy, so a long session does not fill session storage', async () => {
    const s = session();
    const origins = Array.from({ length: KEPT_MAX + 3 }, (_, i) => `https://site${i}.example`);
    await Promise.all(origins.map((o) => keepReport(s, makeReport([makeSkill()], { origin: o }), false)));
    const kept = origins.filter((o) => keptReportOf(s.map.get(keptReportKey(o)), o) !== null);
    expect(kept).toEqual(origins.slice(3));
    // Keeping an origin again makes it the newest: the next one dropped is another.
    await keepReport(s, makeReport([makeSkill()], { origin: origins[3] as string }), false);
    await keepReport(s, makeReport([makeSkill()], { origin: 'https://new.example' }), false);
    expect(keptReportOf(s.map.get(keptReportKey(origins[3] as string)), origins[3] as string)).not.toBeNull();
    expect(keptReportOf(s.map.get(keptReportKey(origins[4] as string)), origins[4] as string)).toBeNull();
  });
});
