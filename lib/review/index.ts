// What a skill can do (PRODUCT.md §6.1): every file of a skill reviewed once per content, in time
// linear in its bytes and bounded per skill. Each finding names its kind, severity, file and line,
// the matched text (escaped, shortened) and one plain sentence. The rule set has a name
// (REVIEW_RULES): an approval records it, and a newer rule set judges stored approvals again.
import type { Finding, FindingSeverity, SkillReview } from '../types';
import { SEVERITY_ORDER } from '../types/review';
import { MAX_FINDINGS } from './limits';
import { reviewFiles } from './review-files';
import type { ReviewFile, ReviewOptions } from './review-types';

export { FILE_SCAN_MAX, MATCH_MAX, MAX_FINDINGS } from './limits';
export type { ReviewFile, ReviewOptions } from './review-types';

/** The name of this rule set. Change it whenever a rule changes what is found. */
export const REVIEW_RULES = 'review-2026-12';

function rank(s: FindingSeverity): number {
  return SEVERITY_ORDER.indexOf(s);
}

/** Findings in the order the pages list them: severity, then file (SKILL.md first), then line. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => {
    const r = rank(a.severity) - rank(b.severity);
    if (r !== 0) return r;
    if (a.file !== b.file) return a.file === 'SKILL.md' ? -1 : b.file === 'SKILL.md' ? 1 : a.file < b.file ? -1 : 1;
    return (a.line ?? 0) - (b.line ?? 0);
  });
}

/** Reviews every file of a skill. Never throws: a file that cannot be read is judged by what it is. */
export function reviewSkill(files: readonly ReviewFile[], opts: ReviewOptions): SkillReview {
  const { findings, truncated } = reviewFiles(files, opts);
  const sorted = sortFindings(findings);
  return { rules: REVIEW_RULES, findings: sorted.slice(0, MAX_FINDINGS), files: files.length, truncated: truncated || sorted.length > MAX_FINDINGS };
}

/** A finding's identity across versions: what it is and where, not its line (lines move with edits). */
export function findingKey(f: Pick<Finding, 'kind' | 'file' | 'match'>): string {
  return `${f.kind}\u0000${f.file}\u0000${f.match}`;
}

/**
 * Where a hand-off goes: `chat` (Copy, Insert: the SKILL.md text reaches a chat) or `computer`
 * (Export for upload, the desktop program's agent folders and MCP server: the files reach a place
 * that can run them).
 */
export type ReachRoute = 'chat' | 'computer';

/** The findings a hand-off on this route needs the user's confirmation for. */
export function confirmationNeeded(review: SkillReview, route: ReachRoute): Finding[] {
  return review.findings.filter((f) => f.severity === 'acts' || (route === 'computer' && f.severity === 'can-act'));
}

/** The findings an approval asks the user to confirm: every one that acts or can act, on any route. */
export function findingsToConfirm(review: SkillReview): Finding[] {
  return confirmationNeeded(review, 'computer');
}

/** The findings of `needed` that `confirmed` (keys) does not cover. */
export function unconfirmed(needed: readonly Finding[], confirmed: readonly string[] | undefined): Finding[] {
  const have = new Set(confirmed ?? []);
  return needed.filter((f) => !have.has(findingKey(f)));
}
