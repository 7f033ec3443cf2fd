// mergeCandidates (FORMATS.md §2.6): candidates from llms.txt, the index and the legacy index
// that share URLs, names (NFC and NFD, padded), digests (in either case), types, signatures and
// refusals, in any order.
import fc from 'fast-check';
import { blankCandidate } from '../../../lib/parse/common';
import { mergeCandidates } from '../../../lib/parse/merge';
import { CANDIDATE_SOURCES, DOCUMENTS, type CandidateSource } from '../../../lib/types';
import type { SkillCandidate } from '../../../lib/parse/candidate';
import { checkDiagnostics } from '../invariants';
import { call, check, seen, type FuzzTarget } from '../types';

const URLS = [null, 'https://example.test/a/SKILL.md', 'https://example.test/b/SKILL.md', 'https://example.test/c.zip', 'https://other.test/a/SKILL.md'];
const NAMES = [null, 'review', 'Review', ' review ', 'café', 'cafe\u0301', '', ' '];
const HEXES = ['a'.repeat(64), 'A'.repeat(64), 'b'.repeat(64), '0123456789abcdef'.repeat(4)];

const spec = fc.record({
  source: fc.constantFrom<CandidateSource>(...CANDIDATE_SOURCES),
  url: fc.constantFrom(...URLS),
  type: fc.constantFrom<'skill-md' | 'archive'>('skill-md', 'archive'),
  name: fc.constantFrom(...NAMES),
  description: fc.constantFrom(null, '', 'does things'),
  declared: fc.array(fc.record({ field: fc.constantFrom('inline-sha256', 'index-digest', 'index-sha256'), hex: fc.constantFrom(...HEXES) }), { maxLength: 3 }),
  signature: fc.constantFrom(null, 'c2ln', 'b3RoZXI='),
  refusal: fc.constantFrom(null, null, 'invalid', 'unsupported'),
});

/** Candidates with positions unique per source, as the parsers number them. */
const candidates = fc.array(spec, { maxLength: 24 }).map((specs) => {
  // llms.txt numbers its candidates by line (from 1), an index by entry (from 0).
  const next = Object.fromEntries(CANDIDATE_SOURCES.map((k) => [k, k === 'llms-txt' ? 1 : 0])) as Record<CandidateSource, number>;
  return specs.map((s): SkillCandidate => {
    const c = blankCandidate(s.source, next[s.source]++, s.url ?? '');
    c.url = s.url;
    c.type = s.type;
    c.name = s.name;
    c.description = s.description;
    c.declared = s.declared.map((d) => ({ source: s.source, field: d.field as SkillCandidate['declared'][number]['field'], hex: d.hex }));
    c.signature = s.signature;
    if (s.url === null || s.refusal !== null) c.refusal = { status: s.refusal === 'unsupported' ? 'unsupported' : 'invalid', code: 'url-unparseable', message: 'refused' };
    return c;
  });
});

/** The merge order of the sources: their rows of DOCUMENTS (lib/types/documents.ts). */
const RANK = (source: CandidateSource): number => DOCUMENTS[source].rank;

export const mergeTarget: FuzzTarget = {
  id: 'merge',
  entry: 'mergeCandidates (lib/parse/merge.ts)',
  inputs: 'candidates of all three sources sharing URLs, NFC/NFD and padded names, digests in either case, types, signatures and refusals, in shuffled order',
  property: () =>
    fc.property(candidates, fc.nat(), (list, rotate) => {
      const before = JSON.stringify(list);
      const merged = call('mergeCandidates', () => mergeCandidates(list));
      check(JSON.stringify(list) === before, 'the input candidates were modified');
      const placed = new Set<SkillCandidate>();
      const keys = new Set<string>();
      for (const skill of merged) {
        check(!keys.has(skill.key), `two skills share the key ${skill.key}`);
        keys.add(skill.key);
        check(skill.candidates.length > 0, 'a skill without candidates');
        let previous: SkillCandidate | null = null;
        for (const c of skill.candidates) {
          check(!placed.has(c), 'a candidate is in two skills');
          placed.add(c);
          check(c.url === skill.url, 'a candidate with another URL joined the skill');
          if (previous) check(RANK(previous.source) < RANK(c.source) || (previous.source === c.source && previous.position < c.position), 'candidates out of source order');
          previous = c;
        }
        const hexes = new Set<string>();
        const triples = new Set<string>();
        for (const d of skill.declared) {
          check(/^[0-9a-f]{64}$/.test(d.hex), 'a merged digest is not lower case');
          const t = `${d.source} ${d.field} ${d.hex}`;
          check(!triples.has(t), 'a digest is listed twice');
          triples.add(t);
          hexes.add(d.hex);
        }
        check(skill.disagree === hexes.size > 1, 'disagree does not match the declared digests');
        const refusals = skill.candidates.map((c) => c.refusal).filter((r) => r !== null);
        check((skill.refusal === null) === (refusals.length === 0), 'the refusal does not match the candidates');
        if (refusals.some((r) => r.status === 'unsupported')) check(skill.refusal?.status === 'unsupported', 'unsupported does not win over invalid');
        checkDiagnostics(skill.diagnostics ?? [], `skill ${skill.key}`);
        seen(skill.refusal === null ? (skill.disagree ? 'disagree' : 'skill') : `refused/${skill.refusal.status}`);
        for (const d of skill.diagnostics ?? []) seen(d.code);
      }
      check(placed.size === list.length, `${list.length - placed.size} candidates were lost`);
      // The result does not depend on the order of the input array.
      const shift = list.length === 0 ? 0 : rotate % list.length;
      const rotated = [...list.slice(shift), ...list.slice(0, shift)].reverse();
      check(JSON.stringify(mergeCandidates(rotated)) === JSON.stringify(merged), 'the result depends on the input order');
    }),
};
