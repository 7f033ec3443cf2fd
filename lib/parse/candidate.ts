// One skill as one discovery document lists it: what the llms.txt and index parsers produce and
// merge joins (FORMATS.md §1, §2, §2.6).
import type { CandidateSource, DeclaredDigest, Diagnostic } from '../types';

/** One skill as one discovery document lists it, before merging. */
export interface SkillCandidate {
  source: CandidateSource;
  /** 1-based line in llms.txt, or 0-based entry index in an index. */
  position: number;
  rawUrl: string;
  /** Resolved absolute URL with the fragment removed; null when the URL is unusable. */
  url: string | null;
  type: 'skill-md' | 'archive';
  name: string | null;
  description: string | null;
  version: string | null;
  license: string | null;
  homepage: string | null;
  scope: string | null;
  tool: string | null;
  toolSha256: string | null;
  declared: DeclaredDigest[];
  /** Base64 signature from the index entry, verbatim. */
  signature: string | null;
  /** Set when the entry is refused before any request (FORMATS.md §10 items 1–2). */
  refusal: { status: 'invalid' | 'unsupported'; code: string; message: string } | null;
  diagnostics: Diagnostic[];
}
