// Whether a skill reaches beyond text once it sits in an agent's folder: frontmatter that asks
// for tools, servers or hooks (`allowed-tools` and its kin), or files an agent could run. Such a
// skill goes into an agent folder only with the user's confirmation for that agent and that
// content (docs/desktop.md); the extension asks with this answer and the host checks it again.
import { parseFrontmatter } from '../parse/skill-md';
import { reachKeys } from '../verify/advisory';
import { isScriptPath } from './paths';

export interface Grants {
  /** Frontmatter keys that grant tools, servers or hooks. */
  tools: string[];
  /** Paths of files an agent or the system could run. */
  scripts: string[];
}

export function grantsOf(skillMd: Uint8Array, paths: readonly string[]): Grants {
  return { tools: reachKeys(parseFrontmatter(skillMd).data), scripts: paths.filter(isScriptPath) };
}

export function needsConfirmation(grants: Grants): boolean {
  return grants.tools.length > 0 || grants.scripts.length > 0;
}
