// The finding keys a user confirms in a skill's approval confirmation (PRODUCT.md §6.1): every
// finding of the report's review that acts or can act.
import { findingKey, findingsToConfirm } from '../../lib/review';
import type { SkillReport } from '../../lib/types';

export function confirmKeys(skill: Pick<SkillReport, 'review'>): string[] {
  return skill.review === null ? [] : findingsToConfirm(skill.review).map(findingKey);
}
