// Expected vs observed outcomes of a case, in one vocabulary: the observation is the report
// projected onto the fields the expectation names, so equal outcomes print as equal text.
import type { OriginReport, SkillReport } from '../../lib/types';
import type { CheckContext, Expected, HostileCase } from './types';

/** The key a case names a skill by: its index name, else its llms.txt title, else the display name. */
export function skillKey(s: SkillReport): string {
  return s.names.index ?? s.names.llmsTxt ?? s.name;
}

function statusText(s: SkillReport, withCode: boolean): string {
  return withCode ? `${s.status}/${s.statusCode}` : s.status;
}

/** Every code the report carries: origin diagnostics, skill diagnostics and status codes. */
export function reportCodes(report: OriginReport): Set<string> {
  const codes = new Set<string>();
  for (const d of report.diagnostics) codes.add(d.code);
  for (const s of report.skills) {
    codes.add(s.statusCode);
    for (const d of s.diagnostics) codes.add(d.code);
  }
  return codes;
}

export interface Projection {
  state: string;
  skillStatuses?: Record<string, string> | string[];
  sources?: Record<string, string>;
  diagnostics?: string[];
  keyState?: string;
  approvals?: Record<string, string>;
  skillCount?: number;
  custom?: string;
}

function sourceText(report: OriginReport, kind: string, detailed: boolean): string {
  const found = report.sources.filter((s) => s.kind === kind);
  if (found.length === 0) return 'not-requested';
  const last = found[found.length - 1];
  if (!last) return 'not-requested';
  return detailed ? `${last.outcome}/${last.reason ?? '-'}` : last.outcome;
}

/** The expectation itself as a projection (custom checks read `ok`). */
export function expectedProjection(e: Expected): Projection {
  const p: Projection = { state: e.state ?? 'done' };
  if (e.skillStatuses !== undefined) p.skillStatuses = Array.isArray(e.skillStatuses) ? [...e.skillStatuses].sort() : { ...e.skillStatuses };
  if (e.sources !== undefined) p.sources = { ...(e.sources as Record<string, string>) };
  if (e.diagnostics !== undefined) p.diagnostics = [...e.diagnostics].sort();
  if (e.keyState !== undefined) p.keyState = e.keyState;
  if (e.approvals !== undefined) p.approvals = { ...e.approvals };
  if (e.skillCount !== undefined) p.skillCount = e.skillCount;
  if (e.custom !== undefined) p.custom = 'ok';
  return p;
}

/** The report projected onto the fields of `e`; custom checks run here. */
export async function observe(e: Expected, ctx: CheckContext): Promise<Projection> {
  const r = ctx.report;
  const p: Projection = { state: r.state };
  if (e.skillStatuses !== undefined) {
    if (Array.isArray(e.skillStatuses)) {
      const withCode = e.skillStatuses.some((x) => x.includes('/'));
      p.skillStatuses = r.skills.map((s) => statusText(s, withCode)).sort();
    } else {
      const out: Record<string, string> = {};
      for (const [key, want] of Object.entries(e.skillStatuses)) {
        const matches = r.skills.filter((s) => skillKey(s) === key);
        if (matches.length === 0) out[key] = 'missing';
        else if (matches.length > 1) out[key] = `ambiguous(${matches.length})`;
        else out[key] = statusText(matches[0] as SkillReport, want.includes('/'));
      }
      const extra = r.skills.filter((s) => !(skillKey(s) in e.skillStatuses!));
      for (const s of extra) out[`unexpected:${skillKey(s)}`] = s.status;
      p.skillStatuses = out;
    }
  }
  if (e.sources !== undefined) {
    const out: Record<string, string> = {};
    for (const [kind, want] of Object.entries(e.sources as Record<string, string>)) out[kind] = sourceText(r, kind, want.includes('/'));
    p.sources = out;
  }
  if (e.diagnostics !== undefined) {
    const codes = reportCodes(r);
    p.diagnostics = e.diagnostics.map((c) => (codes.has(c) ? c : `missing:${c}`)).sort();
  }
  if (e.keyState !== undefined) p.keyState = r.key.state;
  if (e.approvals !== undefined) {
    const out: Record<string, string> = {};
    for (const key of Object.keys(e.approvals)) {
      const s = r.skills.find((x) => skillKey(x) === key);
      out[key] = s ? s.approval.state : 'missing';
    }
    p.approvals = out;
  }
  if (e.skillCount !== undefined) p.skillCount = r.skills.length;
  if (e.custom !== undefined) {
    let problem: string | null;
    try {
      problem = await e.custom.check(ctx);
    } catch (err) {
      problem = `check threw: ${err instanceof Error ? err.message : String(err)}`;
    }
    p.custom = problem ?? 'ok';
  }
  return p;
}

function recordText(r: Record<string, string>): string {
  return Object.entries(r)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** One line of text for a projection (the same for expected and observed). */
export function projectionText(p: Projection, customText?: string): string {
  const parts: string[] = [];
  if (p.state !== 'done') parts.push(`state ${p.state}`);
  if (p.skillStatuses !== undefined) {
    parts.push(Array.isArray(p.skillStatuses) ? `skills [${compactList(p.skillStatuses)}]` : `skills {${recordText(p.skillStatuses)}}`);
  }
  if (p.skillCount !== undefined) parts.push(`${p.skillCount} skills`);
  if (p.sources !== undefined) parts.push(`sources {${recordText(p.sources)}}`);
  if (p.keyState !== undefined) parts.push(`key ${p.keyState}`);
  if (p.approvals !== undefined) parts.push(`approvals {${recordText(p.approvals)}}`);
  if (p.diagnostics !== undefined) parts.push(`codes ∋ ${p.diagnostics.join(', ')}`);
  if (p.custom !== undefined) parts.push(p.custom === 'ok' && customText !== undefined ? customText : p.custom === 'ok' ? 'checks ok' : `FAILED: ${p.custom}`);
  return parts.join('; ');
}

/** `a, a, b` as `2× a, b`. */
function compactList(items: string[]): string {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i, (counts.get(i) ?? 0) + 1);
  return [...counts.entries()].map(([k, n]) => (n > 1 ? `${n}× ${k}` : k)).join(', ');
}

export function sameProjection(a: Projection, b: Projection): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(p: Projection): unknown {
  const sortRecord = (r: Record<string, string> | undefined): [string, string][] | undefined =>
    r === undefined ? undefined : Object.entries(r).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return {
    state: p.state,
    skillStatuses: Array.isArray(p.skillStatuses) ? [...p.skillStatuses].sort() : sortRecord(p.skillStatuses),
    sources: sortRecord(p.sources),
    diagnostics: p.diagnostics ? [...p.diagnostics].sort() : undefined,
    keyState: p.keyState,
    approvals: sortRecord(p.approvals),
    skillCount: p.skillCount,
    custom: p.custom,
  };
}

/** The expected outcome of a case as text: what the runners record and docs/reliability.md shows. */
export function expectedText(c: HostileCase): string {
  if (c.scenario) return c.scenario.expectedText;
  return projectionText(expectedProjection(c.expected), c.expected.custom?.text);
}
