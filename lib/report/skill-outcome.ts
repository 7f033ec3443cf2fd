// What the engine found about one skill (lib/probe/artifacts.ts, status.ts), as the report
// builder reads it (build-report.ts): the engine writes these shapes, the report reads them.
import type { MergedSkill } from '../parse/merge';
import type { Frontmatter } from '../parse/skill-md';
import type { SkillReport } from '../types';

/** A skill's status with its code, message and approval state (decideStatus in lib/probe/status.ts). */
export interface StatusDecision extends Pick<SkillReport, 'status' | 'approval'> {
  code: string;
  message: string;
}

/** One skill after its artifacts were fetched and checked (processSkill in lib/probe/artifacts.ts): what the report shows of it, as the report shows it. */
export interface SkillOutcome extends Pick<SkillReport, 'actual' | 'signature' | 'archive' | 'snapshot' | 'advisory' | 'review' | 'fromStore' | 'finalUrl' | 'diagnostics'> {
  merged: MergedSkill;
  decision: StatusDecision;
  skillMd: Uint8Array | null;
  frontmatter: Frontmatter | null;
  /** The bytes passed the digest and archive checks: their frontmatter may be displayed. */
  trusted: boolean;
}
