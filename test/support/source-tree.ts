// The repository's source files as the architecture and gate tests read them: repo-relative paths
// under the folders named, sorted, those whose name matches `pattern` (TypeScript by default).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '../..');

export function sourceFiles(roots: readonly string[], pattern: RegExp = /\.(ts|tsx)$/): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(REPO_ROOT, dir))) {
      const rel = `${dir}/${name}`;
      if (statSync(join(REPO_ROOT, rel)).isDirectory()) walk(rel);
      else if (pattern.test(name)) out.push(rel);
    }
  };
  for (const root of roots) walk(root);
  return out.sort();
}
