// docs/benchmarks.md read back (scripts/bench/report.mjs): a run of some bench specs keeps the
// other sections, with their targets and the reasons of the missed ones, as they were written.
import { describe, expect, it } from 'vitest';
import { parseReport, renderReport, sectionNumber } from '../../../scripts/bench/report.mjs';

const run = { command: 'npm run bench', startedAt: '2026-01-01T00:00:00Z', seconds: 10, machine: [['CPU', '2 × x']] as [string, string][], failed: [] };
const sections = [
  {
    id: '1-page-load',
    title: '1. Page load | light',
    columns: ['page', 'ratio'],
    rows: [
      ['light | new tab', '1.003 (0.99–1.01)'],
      ['heavy', 'npx playwright test -c test/bench/playwright.bench.config.ts pageload.bench.ts'],
    ],
    targets: [
      { what: 'page load, light', target: '≤ 1.02', measured: '1.05', met: false, why: 'noise' },
      { what: 'page load, heavy', target: '≤ 1.02', measured: '1.00', met: true },
    ],
    notes: ['Three browsers.'],
    seconds: 12,
  },
  { id: '1b-wake', title: '1b. The wake', columns: ['what'], rows: [['cold']], targets: [{ what: 'a row', target: 'measured', measured: '3 ms', met: null }], notes: [] },
];

describe('bench report', () => {
  it('a written report reads back into the same report', () => {
    const md = renderReport(sections, run);
    const back = parseReport(md);
    expect(back.map((s) => s.id)).toEqual(['kept-1', 'kept-1b']);
    expect(back[0]?.targets[0]).toEqual({ what: 'page load, light', target: '≤ 1.02', measured: '1.05', met: false, why: 'noise' });
    expect(renderReport(back, run)).toBe(md);
  });

  it('the section number is the title’s', () => {
    expect(sectionNumber('6b. The side-panel library')).toBe('6b');
    expect(sectionNumber('12. x')).toBe('12');
  });
});
