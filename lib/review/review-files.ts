// The file-by-file pass of the review (lib/review/index.ts): what each file is (file-kinds.ts,
// install-scripts.ts), what SKILL.md's frontmatter grants (frontmatter.ts), the shell-ish text
// rules (remote-code.ts, commands.ts), chat risks (chat-risks.ts), hidden text (hidden.ts) and
// text hidden in images (images.ts, svg.ts). Bounded per file and per skill (limits.ts).
import type { Finding } from '../types';
import { CHAT_RULES } from './chat-risks';
import { COMMAND_RULES } from './commands';
import { fileKindFindings, isDocument } from './file-kinds';
import { Findings } from './findings';
import { frontmatterFindings, loadCommandFindings } from './frontmatter';
import { hiddenFindings } from './hidden';
import { rasterImageFindings } from './images';
import { installScriptFindings } from './install-scripts';
import { SKILL_SCAN_MAX } from './limits';
import { applyLineRules, type LineRule } from './line-rules';
import { REMOTE_CODE_RULES } from './remote-code';
import type { ReviewFile, ReviewOptions } from './review-types';
import { isSvg, SVG_RULES } from './svg';
import { textOf } from './text-of';

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

export function reviewFiles(files: readonly ReviewFile[], _opts: ReviewOptions): { findings: Finding[]; truncated: boolean } {
  const out = new Findings(SKILL_SCAN_MAX);
  // SKILL.md first, so that its findings are collected before any bound is reached.
  const ordered = [...files].sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : 0));
  for (const file of ordered) reviewFile(file, out);
  return { findings: out.list, truncated: out.truncated };
}
