// What the engine found about one skill (lib/probe/artifacts.ts, status.ts), as the report
// builder reads it (build-report.ts): the engine writes these shapes, the report reads them.
import type { MergedSkill } from '../parse/merge';
import type { Frontmatter } from '../parse/skill-md';
import type { AdvisoryFlag, ApprovalReport, Diagnostic, SignatureState, SkillArchive, SkillReview, SkillStatus, SnapshotReport } from '../types';

/** A skill's status with its code, message and approval state (decideStatus in lib/probe/status.ts). */
export interface StatusDecision {
  status: SkillStatus;
  code: string;
  message: string;
  approval: ApprovalReport;
}

/** One skill after its artifacts were fetched and checked (processSkill in lib/probe/artifacts.ts). */
export interface SkillOutcome {
  merged: MergedSkill;
  decision: StatusDecision;
  /** Digests of the SKILL.md handed on (for archives: the root SKILL.md), null when none was obtained. */
  actual: { raw: string; lf: string; matchedForm: 'raw' | 'lf-normalized' | null } | null;
  skillMd: Uint8Array | null;
  frontmatter: Frontmatter | null;
  /** The bytes passed the digest and archive checks: their frontmatter may be displayed. */
  trusted: boolean;
  signature: { state: SignatureState; message: string | null };
  archive: SkillArchive | null;
  snapshot: SnapshotReport | null;
  advisory: AdvisoryFlag[];
  /** What every file of the verified bytes can do (lib/review/); null when no bytes passed the checks. */
  review: SkillReview | null;
  fromStore: boolean;
  /** Where the bytes were served from after redirects (the last fetch's final URL), null when none is known. */
  finalUrl: string | null;
  diagnostics: Diagnostic[];
}
