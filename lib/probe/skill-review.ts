// The review of a skill's files (PRODUCT.md §6.1), once per content: keyed by the SKILL.md's LF digest,
// the archive's file set and the rule set, so a revisit, the popup and the hand-off gate judge the same
// bytes once. The files are the verified ones: the SKILL.md and, for an archive, every other file.
import type { StoredSkill } from '../store/records';
import type { ApprovalReview, SkillReview } from '../types';
import { findingKey, findingsToConfirm, REVIEW_RULES, type ReviewFile, reviewSkill } from '../review';

/** Reviews kept in memory at most (one worker's life); the oldest is dropped first. */
const CACHE_MAX = 512;
const cache = new Map<string, SkillReview>();

/** The review of these files, from the cache when the same content was judged by the same rules. */
export function reviewOf(origin: string, digestLf: string, filesDigest: string, files: () => ReviewFile[]): SkillReview {
  const key = `${REVIEW_RULES}\n${origin}\n${digestLf}\n${filesDigest}`;
  const known = cache.get(key);
  if (known !== undefined) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  const review = reviewSkill(files());
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, review);
  return review;
}

/** The review of stored verified bytes (the hand-off gate judges exactly what it lets out). */
export function reviewStored(stored: StoredSkill): SkillReview {
  // SKILL.md, then for an archive every other file kept.
  const files = (): ReviewFile[] => [{ path: 'SKILL.md', bytes: stored.bytes }, ...(stored.archive?.files ?? [])];
  return reviewOf(stored.origin, stored.digestLf, stored.archive?.filesDigest ?? '', files);
}

/** The review of bytes a probe examined: its files when it has them (an archive from the store lists only SKILL.md). */
export function reviewExamined(origin: string, digestLf: string, filesDigest: string, files: Map<string, Uint8Array>): SkillReview {
  return reviewOf(origin, digestLf, filesDigest, () => [...files].map(([path, bytes]) => ({ path, bytes })));
}

/**
 * What an approval records of a review (PRODUCT.md §6.1): the rule set, every finding shown, and of
 * the findings that need a confirmation those the user confirmed (`confirm`: keys the page sent).
 */
export function approvalReviewOf(review: SkillReview, confirm: readonly string[] | undefined, now: number, before?: ApprovalReview): ApprovalReview {
  const wanted = new Set(confirm ?? []);
  // A confirmation given before for the same findings stands: it is asked again only when they change.
  for (const key of before?.confirmed ?? []) wanted.add(key);
  const confirmed = findingsToConfirm(review)
    .map(findingKey)
    .filter((k) => wanted.has(k));
  const fresh = confirmed.some((k) => !(before?.confirmed ?? []).includes(k));
  return {
    rules: review.rules,
    shown: [...new Set(review.findings.map(findingKey))],
    confirmed: [...new Set(confirmed)],
    confirmedAt: confirmed.length === 0 ? null : fresh ? now : (before?.confirmedAt ?? now),
  };
}
