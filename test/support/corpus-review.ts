// The review over the real corpus (test/fixtures/corpus, its README): every SKILL.md and every
// archive there, reviewed as the probe would. The false-positive table of docs/reliability.md
// (scripts/lib/review-section.mjs) and its ceiling test (test/unit/review/corpus.test.ts) read it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reviewSkill } from '../../lib/review';
import type { SkillReview } from '../../lib/types';
import type { ReviewRow } from '../../scripts/lib/review-section.mjs';
import { unpackArchive } from '../../lib/verify/archive';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const CORPUS_DIR = join(ROOT, 'test/fixtures/corpus');

export interface CorpusSkill {
  /** Path from the corpus folder. */
  path: string;
  kind: 'skill-md' | 'archive';
  review: SkillReview | null;
  /** Why an archive was not reviewed (it did not unpack). */
  refused: string | null;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name === 'SKILL.md' || name.endsWith('.zip') || name.endsWith('.tar.gz')) out.push(full);
  }
}

/** Every SKILL.md and archive of the corpus, in path order. */
export function corpusSkillPaths(): string[] {
  const out: string[] = [];
  walk(CORPUS_DIR, out);
  return out;
}

export async function reviewCorpus(): Promise<CorpusSkill[]> {
  const rows: CorpusSkill[] = [];
  for (const full of corpusSkillPaths()) {
    const path = relative(CORPUS_DIR, full);
    const bytes = new Uint8Array(readFileSync(full));
    if (full.endsWith('SKILL.md')) {
      rows.push({ path, kind: 'skill-md', review: reviewSkill([{ path: 'SKILL.md', bytes }]), refused: null });
      continue;
    }
    const unpacked = await unpackArchive(bytes, full.endsWith('.zip') ? 'zip' : 'tar.gz');
    if (!unpacked.ok) {
      rows.push({ path, kind: 'archive', review: null, refused: unpacked.code });
      continue;
    }
    const files = [...unpacked.files].map(([p, b]) => ({ path: p, bytes: b }));
    rows.push({ path, kind: 'archive', review: reviewSkill(files), refused: null });
  }
  return rows;
}

/**
 * Why each `acts` finding on a real skill is there, keyed `path kind` (docs/reliability.md lists
 * them; test/unit/review/corpus.test.ts fails on one not explained here).
 */
export const ACTS_EXPLAINED: Record<string, string> = {};

/** The rows of the review section of docs/reliability.md (scripts/lib/review-section.mjs). */
export async function reviewRows(): Promise<ReviewRow[]> {
  return (await reviewCorpus()).map((r) => ({
    path: r.path,
    kind: r.kind,
    files: r.review?.files ?? 0,
    refused: r.refused,
    findings: (r.review?.findings ?? []).map((f) => ({ severity: f.severity, kind: f.kind, line: f.line, match: f.match })),
  }));
}
