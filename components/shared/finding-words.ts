// What a skill can do, in words (PRODUCT.md §6.1): one sentence per kind of finding and one word and
// marker per severity, in one table each so that a kind or a severity with no words does not
// compile; and the groupings every view lists findings in (most serious first).
import { t, type MessageKey } from '../../lib/i18n';
import { findingKey, findingsToConfirm, unconfirmed } from '../../lib/review';
import type { Finding, FindingKind, FindingSeverity, SkillReport, SkillReview } from '../../lib/types';
import { SEVERITY_ORDER } from '../../lib/types/review';

export { kindWords } from '../../lib/i18n/finding';

/** Each severity in words, with a text marker so that its meaning never rests on colour alone. */
export const SEVERITY_WORDS = {
  acts: { key: 'severity_acts', mark: '‼' },
  'can-act': { key: 'severity_can_act', mark: '!' },
  look: { key: 'severity_look', mark: '?' },
} as const satisfies Record<FindingSeverity, { key: MessageKey; mark: string }>;

/** Where a finding is: "scripts/run.sh, line 3", or the whole file. */
export function findingPlace(f: Pick<Finding, 'file' | 'line'>): string {
  return f.line === null ? t('finding_whole_file', f.file) : t('finding_at_line', f.file, String(f.line));
}

/** The findings of one kind, at the most serious severity any of them has. */
export interface KindGroup {
  kind: FindingKind;
  severity: FindingSeverity;
  findings: Finding[];
}

/** Findings grouped by kind, most serious first (then in the review's order, which is severity, file, line). */
export function groupByKind(findings: readonly Finding[]): KindGroup[] {
  const groups = new Map<FindingKind, KindGroup>();
  for (const f of findings) {
    const g = groups.get(f.kind);
    if (g) {
      g.findings.push(f);
      if (SEVERITY_ORDER.indexOf(f.severity) < SEVERITY_ORDER.indexOf(g.severity)) g.severity = f.severity;
    } else groups.set(f.kind, { kind: f.kind, severity: f.severity, findings: [f] });
  }
  return [...groups.values()].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}

/** Findings grouped by severity, most serious first, and within each by kind. */
export function groupBySeverity(findings: readonly Finding[]): { severity: FindingSeverity; kinds: KindGroup[] }[] {
  return SEVERITY_ORDER.map((severity) => ({ severity, kinds: groupByKind(findings.filter((f) => f.severity === severity)) })).filter((s) => s.kinds.length > 0);
}

/** The most serious severity among findings, or null when there are none. */
export function mostSerious(findings: readonly Finding[]): FindingSeverity | null {
  return SEVERITY_ORDER.find((s) => findings.some((f) => f.severity === s)) ?? null;
}

/** The keys an approval of this review confirms: every finding that acts or can act. */
export function confirmKeys(review: SkillReview | null): string[] {
  return review === null ? [] : findingsToConfirm(review).map(findingKey);
}

/**
 * The findings approving this skill asks the user to confirm now: every one that acts or can act,
 * unless the approval it replaces confirmed exactly these (the confirmation is asked again only when
 * the findings change).
 */
export function findingsToAsk(skill: Pick<SkillReport, 'review' | 'approval'>): Finding[] {
  if (!skill.review) return [];
  const needed = findingsToConfirm(skill.review);
  const before = skill.approval.approval?.review?.confirmed;
  return unconfirmed(needed, before).length === 0 ? [] : needed;
}

/** An approved skill whose findings that act or can act are not all confirmed (a newer rule set, an import). */
export function needsConfirmation(skill: Pick<SkillReport, 'review' | 'approval'>): boolean {
  const a = skill.approval;
  if (a.state !== 'approved' || !a.approval || !skill.review) return false;
  return unconfirmed(findingsToConfirm(skill.review), a.approval.review?.confirmed).length > 0;
}
