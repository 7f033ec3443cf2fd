// Whether a skill reaches beyond text once it sits in an agent's folder, read from the review
// (lib/review/, PRODUCT.md §6.1): frontmatter that grants tools, servers or hooks, or that cannot
// be read (taken as granting tools), and files that are code (scripts, programs, install scripts,
// files tools run by themselves, tool metadata, dot-files, source code). Such a skill goes into an
// agent folder only with the user's confirmation for that agent and that content (docs/desktop.md);
// the extension asks with this answer and the host checks it again.
import { reviewSkill, type ReviewFile } from '../../review';
import type { FindingKind } from '../../types';
import { isScriptPath } from './paths';

export interface Grants {
  /** Frontmatter keys that grant tools, servers or hooks (or the reason the frontmatter cannot be read). */
  tools: string[];
  /** Paths of files an agent or the system could run. */
  scripts: string[];
}

const TOOL_KINDS: ReadonlySet<FindingKind> = new Set(['tool-grant', 'hooks', 'unreadable-frontmatter']);
const CODE_KINDS: ReadonlySet<FindingKind> = new Set(['executable', 'code-file', 'install-script', 'auto-run-file', 'tool-metadata', 'dot-file']);
const EMPTY = new Uint8Array(0);

/**
 * The grants of a skill: its SKILL.md and its other files, as paths (judged by name alone) or with
 * their bytes (judged by content as well). A path under `scripts/` or `bin/` counts as a script too.
 */
export function grantsOf(skillMd: Uint8Array, files: readonly (string | ReviewFile)[]): Grants {
  const others = files.map((f) => (typeof f === 'string' ? { path: f, bytes: EMPTY } : f)).filter((f) => f.path !== 'SKILL.md');
  const review = reviewSkill([{ path: 'SKILL.md', bytes: skillMd }, ...others]);
  const tools = new Set<string>();
  const scripts = new Set<string>();
  for (const f of review.findings) {
    if (TOOL_KINDS.has(f.kind)) tools.add(f.match);
    else if (CODE_KINDS.has(f.kind) && f.file !== 'SKILL.md') scripts.add(f.file);
  }
  for (const f of others) if (isScriptPath(f.path)) scripts.add(f.path);
  return { tools: [...tools], scripts: [...scripts].sort() };
}

export function needsConfirmation(grants: Grants): boolean {
  return grants.tools.length > 0 || grants.scripts.length > 0;
}
