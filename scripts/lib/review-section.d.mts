export const REVIEW_BEGIN: string;
export const REVIEW_END: string;
export const ACTS_CEILING_PERCENT: number;
export interface RowFinding {
  severity: string;
  kind: string;
  line: number | null;
  match: string;
}
export interface ReviewRow {
  path: string;
  kind: 'skill-md' | 'archive';
  files: number;
  refused: string | null;
  findings: RowFinding[];
}
export function renderReviewSection(rows: ReviewRow[], explained: Record<string, string>): string;
export function extractReviewSection(md: string): string | null;
