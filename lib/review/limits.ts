// The review's bounds (PRODUCT.md §6.1): how many findings a skill keeps, how much of a finding's
// matched text, how many bytes of a file and of a skill are read. Past a bound the review says
// it was truncated (SkillReview.truncated).

/** Findings per skill at most; past it the review says it was truncated. */
export const MAX_FINDINGS = 200;
/** Characters of matched text a finding keeps. */
export const MATCH_MAX = 120;
/** Bytes of one file read as text (the first 1 MiB); the rest is not reviewed and the review says so. */
export const FILE_SCAN_MAX = 1024 * 1024;
/** Bytes of text read per skill (the archive cap, FORMATS.md §6.3). */
export const SKILL_SCAN_MAX = 16 * 1024 * 1024;
/** Findings of one kind in one file at most (the rest of the file repeats the point). */
export const PER_FILE_KIND_MAX = 8;
/** Findings collected per skill before only `acts` findings are still taken (memory bound). */
export const COLLECT_MAX = 2000;
/** Characters of a line the text rules read (a longer line is read in windows of this size). */
export const LINE_WINDOW = 4096;
