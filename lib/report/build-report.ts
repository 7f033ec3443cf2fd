// Assembles the OriginReport every view and test reads (docs/report.md). Statuses come
// decided from the engine; this module only arranges them for display.
import { DESCRIPTION_MAX, NAME_MAX, displayText } from '../render/display';
import type { AttestationReport, Diagnostic, OriginReport, SkillReport, SkillStatus } from '../types';
import { isApprovable, WARNING_STATUSES } from '../types';
import type { SkillOutcome } from './skill-outcome';
import { skillContextBreakdown, type SkillContextInput } from '../skill-context/block';
import { estimateTokenCount } from '../verify/tokens';
import { diag } from './codes';
import { decodeSafe } from '../parse/common';
import { urlOf } from '../origin';
import { emptyReport } from './skipped-report';

function firstOf<T>(values: (T | null | undefined)[]): T | null {
  return values.find((v) => v !== null && v !== undefined) ?? null;
}

function nonEmpty(s: string | null | undefined): string | null {
  return s === null || s === undefined || s.trim() === '' ? null : s;
}

function lastSegment(url: string | null): string | null {
  const u = url === null ? null : urlOf(url);
  if (u === null) return null;
  const parts = u.pathname.split('/').filter((p) => p !== '');
  const last = parts[parts.length - 1];
  if (last === undefined) return null;
  // `…/name/SKILL.md` reads better as `name`.
  if (/^skill\.md$/i.test(last) && parts.length > 1) return decodeSafe(parts[parts.length - 2] as string);
  return decodeSafe(last);
}

function hostOf(url: string | null): { host: string | null; origin: string | null } {
  const u = url === null ? null : urlOf(url);
  return { host: u?.host ?? null, origin: u?.origin ?? null };
}

/**
 * The size of the skill-context block Copy and Insert would hand on now (PRODUCT.md §6): the same
 * header the hand-off writes (the approval's key, else the pinned one for a signed skill), then the
 * bytes. Null when there are no bytes to hand on.
 */
function insertedSize(origin: string, name: string, o: SkillOutcome, pinnedFingerprint: string | null): SkillReport['contextParts'] {
  const url = o.merged.url;
  if (!o.skillMd || !o.actual || url === null) return null;
  const status = o.decision.status;
  const signatureState = status === 'verified-signed' ? 'verified-signed' : status === 'verified' ? 'verified' : 'unverified';
  const approved = o.decision.approval.state === 'approved' ? o.decision.approval.approval : null;
  const keyFingerprint = approved ? approved.keyFingerprint : signatureState === 'verified-signed' ? pinnedFingerprint : null;
  const input: SkillContextInput = { origin, name, url, digestLf: o.actual.lf, digestRaw: o.actual.raw, signatureState, keyFingerprint, bytes: o.skillMd };
  return { ...skillContextBreakdown(input), shortHeader: skillContextBreakdown({ ...input, header: 'short' }).header };
}

/** One skill as the report shows it. `pinnedFingerprint`: the origin's pinned key, for the inserted block's header. */
export function skillReport(origin: string, o: SkillOutcome, attestation: AttestationReport | null, pinnedFingerprint: string | null = null): SkillReport {
  const m = o.merged;
  const fromLlms = m.candidates.filter((c) => c.source === 'llms-txt');
  const fromIndex = m.candidates.filter((c) => c.source !== 'llms-txt');
  const fm = o.trusted ? o.frontmatter : null;
  // Publisher strings are shown capped with bidi and invisible characters as code points
  // (lib/render/display.ts); what was replaced raises the hidden-in-name flag.
  let hiddenInName = 0;
  const shown = (value: string | null, max: number): string | null => {
    if (value === null) return null;
    const d = displayText(value, max);
    hiddenInName += d.hidden;
    return d.text;
  };
  const names = {
    llmsTxt: shown(firstOf(fromLlms.map((c) => nonEmpty(c.name))), NAME_MAX),
    index: shown(firstOf(fromIndex.map((c) => nonEmpty(c.name))), NAME_MAX),
    frontmatter: shown(nonEmpty(o.frontmatter?.name ?? null), NAME_MAX),
  };
  const name = firstOf([fm ? names.frontmatter : null, names.index, names.llmsTxt, shown(lastSegment(m.url), NAME_MAX), shown(m.key, NAME_MAX)]) ?? m.key;

  const descriptions = [
    ['frontmatter', nonEmpty(fm?.description ?? null)],
    ['index', firstOf(fromIndex.map((c) => nonEmpty(c.description)))],
    ['llms-txt', firstOf(fromLlms.map((c) => nonEmpty(c.description)))],
  ] as const;
  const [descriptionFrom, chosen] = descriptions.find(([, d]) => d !== null) ?? [null, null];
  const description = shown(chosen, DESCRIPTION_MAX);
  const advisory = [...o.advisory];
  if (hiddenInName > 0) {
    const message = `The skill's name or description carries ${hiddenInName} invisible or bidirectional character(s), shown as their code points`;
    advisory.push({ code: 'hidden-in-name', message, count: hiddenInName });
  }

  const inserted = insertedSize(origin, name, o, pinnedFingerprint);

  const ordered = [...fromIndex, ...fromLlms];
  const pick = (f: (c: (typeof ordered)[number]) => string | null): string | null => firstOf(ordered.map((c) => nonEmpty(f(c))));
  const toolPath = pick((c) => c.tool);
  const toolSha = pick((c) => c.toolSha256);
  // Listed on another origin, or redirected to one: the host that served the bytes is what counts.
  const listed = hostOf(m.url);
  const served = hostOf(o.finalUrl ?? m.url);
  const awayFrom = (h: { origin: string | null }): boolean => h.origin !== null && h.origin !== origin;
  const crossOrigin = awayFrom(listed) || awayFrom(served);
  const host = awayFrom(served) ? served.host : listed.host;
  const diagnostics: Diagnostic[] = [...o.diagnostics];
  if (crossOrigin && m.url !== null) {
    diagnostics.push(diag('cross-origin-artifact', `The artifact is served by ${host ?? 'another host'}, not by ${origin}.`, { url: m.url }));
  }

  return {
    id: `${origin} ${m.url ?? m.key}`,
    url: m.url,
    rawUrls: [...new Set(m.candidates.map((c) => c.rawUrl))],
    type: m.type,
    sources: [...new Set(m.candidates.map((c) => c.source))],
    name,
    names,
    description,
    descriptionFrom,
    version: pick((c) => c.version) ?? fm?.version ?? null,
    license: pick((c) => c.license) ?? fm?.license ?? null,
    homepage: pick((c) => c.homepage),
    scope: pick((c) => c.scope),
    tool: toolPath !== null ? { path: toolPath, sha256: toolSha } : null,
    crossOrigin,
    artifactHost: host,
    finalUrl: o.finalUrl,
    declared: m.declared,
    actual: o.actual,
    size: o.skillMd ? o.skillMd.byteLength : null,
    contextSize: inserted === null ? null : inserted.skill + inserted.header,
    tokens: inserted === null ? null : estimateTokenCount(inserted.skill + inserted.header),
    contextParts: inserted,
    signature: o.signature,
    status: o.decision.status,
    statusCode: o.decision.code,
    statusMessage: o.decision.message,
    approval: o.decision.approval,
    advisory,
    review: o.review,
    attestation,
    snapshot: o.snapshot,
    archive: o.archive,
    fromStore: o.fromStore,
    diagnostics,
  };
}

export function summarize(skills: SkillReport[]): OriginReport['summary'] {
  const byStatus: Partial<Record<SkillStatus, number>> = {};
  for (const s of skills) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const usable = skills.filter((s) => isApprovable(s.status)).length;
  const approved = skills.filter((s) => s.approval.state === 'approved').length;
  const warnings = skills.filter((s) => WARNING_STATUSES.includes(s.status)).length;
  return { total: skills.length, usable, approved, warnings, byStatus };
}

export type ReportParts = Pick<OriginReport, 'origin' | 'publishes' | 'sources' | 'key' | 'skills' | 'diagnostics'> & { startedAt: number; finishedAt: number };

export function buildReport(p: ReportParts): OriginReport {
  const { origin, startedAt, finishedAt, ...rest } = p;
  return { ...emptyReport(origin, 'done', startedAt, finishedAt), ...rest, summary: summarize(p.skills) };
}

/**
 * The report of a probe that failed unexpectedly: the last stored report's content is kept
 * (nothing stored before is lost), marked `error`, with an `engine-error` diagnostic.
 */
export function errorReport(origin: string, previous: OriginReport | null, startedAt: number, finishedAt: number, error: unknown): OriginReport {
  const message = `The probe failed: ${error instanceof Error ? error.message : String(error)}`;
  const d = diag('engine-error', message);
  if (previous) {
    return { ...previous, state: 'error', startedAt, finishedAt, diagnostics: [...previous.diagnostics.filter((x) => x.code !== 'engine-error'), d] };
  }
  return { ...emptyReport(origin, 'error', startedAt, finishedAt), diagnostics: [d] };
}
