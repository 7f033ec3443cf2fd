// Merging candidates from every discovery document into skills (FORMATS.md §2.6,
// PRODUCT.md §2.6). A skill is one resolved artifact URL; names never merge skills.
//
// Decisions:
// - Order: candidates are taken llms.txt first, then the index, then the legacy index, each
//   in document order; skills come out in order of first appearance in that sequence.
//   The result does not depend on the order of the input array.
// - Refusal: when any candidate for a URL is refused, the skill carries the strongest
//   refusal, `unsupported` before `invalid` (FORMATS.md §10 items 1–2); among equals, the
//   first in the order above.
// - Type: when candidates disagree, an index's type wins over the type llms.txt implies by
//   its URL, and the skill gets a `type-differs` diagnostic.
// - Signature: the first index candidate's signature; a different one later adds
//   `signature-differs`.

import { DOCUMENTS, type DeclaredDigest, type Diagnostic } from '../types';
import type { SkillCandidate } from './candidate';
import { diag } from './common';

/** Candidates from every source merged by resolved URL (FORMATS.md §2.6). */
export interface MergedSkill {
  url: string | null;
  /** For refused candidates with no usable URL, a stable synthetic key. */
  key: string;
  type: 'skill-md' | 'archive';
  candidates: SkillCandidate[];
  declared: DeclaredDigest[];
  /** True when declared digests differ. */
  disagree: boolean;
  signature: string | null;
  refusal: SkillCandidate['refusal'];
  /** Merge findings: `type-differs`, `duplicate-name`, `signature-differs`. */
  diagnostics?: Diagnostic[];
}

/** The listing states the entry's type (an index), rather than implying it by the URL (llms.txt). */
function isIndex(c: SkillCandidate): boolean {
  return DOCUMENTS[c.source].statesType;
}

function unionDeclared(candidates: SkillCandidate[]): DeclaredDigest[] {
  const seen = new Set<string>();
  const out: DeclaredDigest[] = [];
  for (const c of candidates) {
    for (const d of c.declared) {
      const hex = d.hex.toLowerCase();
      const key = `${d.source}\u0000${d.field}\u0000${hex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ source: d.source, field: d.field, hex });
    }
  }
  return out;
}

/** The first `unsupported` refusal, else the first refusal, else null. */
function strongestRefusal(candidates: SkillCandidate[]): SkillCandidate['refusal'] {
  const refusals = candidates.map((c) => c.refusal).filter((r) => r !== null);
  return refusals.find((r) => r.status === 'unsupported') ?? refusals[0] ?? null;
}

function mergeGroup(key: string, url: string | null, group: SkillCandidate[]): MergedSkill {
  const diagnostics: Diagnostic[] = [];
  const at = { url: url ?? undefined };
  const declared = unionDeclared(group);
  const disagree = new Set(declared.map((d) => d.hex)).size > 1;

  const first = group[0];
  const indexed = group.filter(isIndex);
  const type: MergedSkill['type'] = (indexed[0] ?? first)?.type ?? 'skill-md';
  if (new Set(group.map((c) => c.type)).size > 1) {
    const from = indexed.length > 0 ? 'the index' : 'the first listing';
    diagnostics.push(diag('type-differs', 'warning', `The sources disagree on the type; "${type}" from ${from} is used.`, at));
  }

  let signature: string | null = null;
  for (const c of indexed) {
    if (c.signature === null) continue;
    if (signature === null) signature = c.signature;
    else if (c.signature !== signature) {
      diagnostics.push(diag('signature-differs', 'warning', 'The index lists this URL twice with different signatures; the first is used.', at));
      break;
    }
  }

  return { url, key, type, candidates: group, declared, disagree, signature, refusal: strongestRefusal(group), diagnostics };
}

/** Groups candidates by resolved URL (already fragment-free) into skills. */
export function mergeCandidates(candidates: SkillCandidate[]): MergedSkill[] {
  const ordered = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => DOCUMENTS[a.c.source].rank - DOCUMENTS[b.c.source].rank || a.c.position - b.c.position || a.i - b.i)
    .map(({ c }) => c);

  const groups = new Map<string, { url: string | null; members: SkillCandidate[] }>();
  for (const c of ordered) {
    const key = c.url ?? `${c.source}#${c.position}`;
    const group = groups.get(key);
    if (group) group.members.push(c);
    else groups.set(key, { url: c.url, members: [c] });
  }

  const merged = [...groups].map(([key, group]) => mergeGroup(key, group.url, group.members));

  // Names never merge skills; the same name on different URLs is reported.
  const byName = new Map<string, MergedSkill[]>();
  for (const skill of merged) {
    const names = new Set<string>();
    for (const c of skill.candidates) if (c.name !== null && c.name.trim() !== '') names.add(c.name.normalize('NFC').trim());
    for (const name of names) {
      const list = byName.get(name);
      if (list) list.push(skill);
      else byName.set(name, [skill]);
    }
  }
  for (const [name, skills] of byName) {
    if (skills.length < 2) continue;
    const message = `The name "${name}" is listed for ${skills.length} different URLs; each is its own skill.`;
    for (const skill of skills) skill.diagnostics?.push(diag('duplicate-name', 'info', message, { url: skill.url ?? undefined }));
  }
  return merged;
}
