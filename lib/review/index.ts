// What a skill can do (PRODUCT.md §6.1): every file of a skill reviewed once per content, in time
// linear in its bytes and bounded per skill. Each finding names its kind, severity, file and line,
// the matched text (escaped, shortened) and one plain sentence. The rule set has a name
// (REVIEW_RULES): an approval records it, and a newer rule set judges stored approvals again.
//
// The file-by-file pass: what each file is (file-kinds.ts, install-scripts.ts), what SKILL.md's
// frontmatter grants (frontmatter.ts), the shell-ish text rules (remote-code.ts, commands.ts), chat
// risks (chat-risks.ts), hidden text (hidden.ts) and text hidden in images (images.ts).
// Bounded per file and per skill (limits.ts).
import type { Finding, SkillReview } from '../types';
import { SEVERITY_ORDER } from '../types/review';
import { CHAT_RULES } from './chat-risks';
import { COMMAND_RULES } from './commands';
import { fileKindFindings, isDocument } from './file-kinds';
import { Findings } from './findings';
import { frontmatterFindings, loadCommandFindings } from './frontmatter';
import { hiddenFindings } from './hidden';
import { isSvg, rasterImageFindings, SVG_RULES } from './images';
import { installScriptFindings } from './install-scripts';
import { MAX_FINDINGS, SKILL_SCAN_MAX } from './limits';
import { applyLineRules, type LineRule } from './line-rules';
import { REMOTE_CODE_RULES } from './remote-code';
import { textOf } from './text-of';

export { FILE_SCAN_MAX, MATCH_MAX, MAX_FINDINGS } from './limits';

/** One file of a skill: SKILL.md at the root, and for an archive every other regular file. */
export interface ReviewFile {
  path: string;
  bytes: Uint8Array;
}

/** The name of this rule set. Change it whenever a rule changes what is found. */
export const REVIEW_RULES = 'review-2026-12';

/** Findings in the order the pages list them: severity, then file (SKILL.md first), then line. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => {
    const r = SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity);
    if (r !== 0) return r;
    if (a.file !== b.file) return a.file === 'SKILL.md' ? -1 : b.file === 'SKILL.md' ? 1 : a.file < b.file ? -1 : 1;
    return (a.line ?? 0) - (b.line ?? 0);
  });
}

const CODE_RULES: readonly LineRule[] = [...REMOTE_CODE_RULES, ...COMMAND_RULES];

function reviewFile(file: ReviewFile, out: Findings): void {
  const { path, bytes } = file;
  fileKindFindings(path, bytes, out);
  if (rasterImageFindings(path, bytes, out)) return;
  const read = textOf(bytes, out);
  if (read === null) return;
  const { text, lines } = read;
  if (path === 'SKILL.md') {
    frontmatterFindings(text, lines, out);
    loadCommandFindings(lines, out);
  }
  installScriptFindings(path, lines, out);
  applyLineRules(path, text, lines, CODE_RULES, out);
  if (isDocument(path)) applyLineRules(path, text, lines, CHAT_RULES, out);
  if (isSvg(path, text)) applyLineRules(path, text, lines, SVG_RULES, out);
  hiddenFindings(path, lines, text, out);
}

/** Reviews every file of a skill. Never throws: a file that cannot be read is judged by what it is. */
export function reviewSkill(files: readonly ReviewFile[]): SkillReview {
  const out = new Findings(SKILL_SCAN_MAX);
  // SKILL.md first, so that its findings are collected before any bound is reached.
  const ordered = [...files].sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : 0));
  for (const file of ordered) reviewFile(file, out);
  const sorted = sortFindings(out.list);
  return { rules: REVIEW_RULES, findings: sorted.slice(0, MAX_FINDINGS), files: files.length, truncated: out.truncated || sorted.length > MAX_FINDINGS };
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
