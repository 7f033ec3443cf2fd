// Pieces shared by the case files.
import type { OriginReport } from '../../../lib/types';
import { skillKey } from '../outcome';
import { indexSite, markdown, skillText, type SimpleSkill } from '../site-kit';
import { TRAP_PREFIX, type CheckContext, type HostileSite, type ReplySpec, type SiteStage } from '../types';

export const KiB = 1024;
export const MiB = 1024 * KiB;

export function one(stage: SiteStage): HostileSite {
  return { stages: [stage] };
}

/** A well-formed skill listed by the index: proves the rest of the origin still works. */
export const CONTROL: SimpleSkill = { name: 'control' };
export const CONTROL_BODY = skillText('control');

/** An index listing only the control skill, plus `paths` (which win). */
export function withControl(paths: Record<string, ReplySpec>): HostileSite {
  const stage = indexSite([CONTROL]);
  return one({ paths: { ...stage.paths, ...paths } });
}

/** The paths the server answered (all stages), without the query. */
export function requestedPaths(ctx: CheckContext): string[] {
  return ctx.log.map((r) => r.path.split('?')[0] ?? r.path);
}

/** A problem when any request hit one of `paths`. */
export function notRequested(ctx: CheckContext, paths: string[]): string | null {
  const hit = requestedPaths(ctx).filter((p) => paths.includes(p));
  return hit.length > 0 ? `requested ${[...new Set(hit)].join(', ')}` : null;
}

export function skillOf(report: OriginReport, key: string): OriginReport['skills'][number] | null {
  return report.skills.find((s) => skillKey(s) === key) ?? null;
}

export function trapUrl(name: string): string {
  return `${TRAP_PREFIX}${name}`;
}

export function skillReply(body: string | Uint8Array): ReplySpec {
  return markdown(body);
}

/** Combines problem checks: the first problem, or null. */
export function firstProblem(...problems: (string | null)[]): string | null {
  for (const p of problems) if (p !== null) return p;
  return null;
}
