// A mirrored skill's revision and key (docs/desktop.md): one digest over every fact the user
// approved, so the extension's sync can say in 64 characters which content the host must hold,
// and the host can tell its copy is current without the files travelling again.
import { sha256Sync, toHex } from '../../verify/sha256';
import type { SkillFacts, SkillRef } from './wire';

export type RevisionFacts = SkillFacts & { files: { path: string; sha256: string; size: number }[] };

const encoder = new TextEncoder();

function hexOf(text: string): string {
  return toHex(sha256Sync(encoder.encode(text)));
}

/** The approved facts of a skill, in the order its revision digests them. */
export const FACT_KEYS = ['origin', 'url', 'name', 'type', 'digestLf', 'digestRaw', 'archiveSha256', 'keyFingerprint', 'verification', 'approvedAt'] as const satisfies readonly (keyof SkillFacts)[];

/** Exactly the approved facts of `x`, without any other field. */
export function factsOf(x: SkillFacts): SkillFacts {
  return Object.fromEntries(FACT_KEYS.map((k) => [k, x[k]])) as unknown as SkillFacts;
}

/** SHA-256 (hex) of the approved facts and the files' paths, digests and sizes, in path order. */
export function skillRevision(facts: RevisionFacts): string {
  const files = [...facts.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => [f.path, f.sha256, f.size]);
  return hexOf(JSON.stringify(['skillpin-mirror-revision-1', ...FACT_KEYS.map((k) => facts[k]), files]));
}

/** The name of a skill's folder in the mirror: SHA-256 (hex) of its origin and URL. */
export function skillKey(ref: SkillRef): string {
  return hexOf(`${ref.origin} ${ref.url}`);
}
