// The parsers of the listings, the documents that list skills (role `listing` in DOCUMENTS,
// lib/types/documents.ts): one per kind, so a listing with no parser does not compile. The parse phase of
// lib/probe/probe-origin.ts runs the one of each listing the discover phase brought.
import { parseIndex, type ParsedIndex } from '../parse/index-json';
import { parseLlmsTxt } from '../parse/llms-txt';
import type { SkillCandidate } from '../parse/candidate';
import { diag } from '../report/codes';
import type { CandidateSource, Diagnostic } from '../types';
import type { DocOutcome } from './discover';

/** What one listing says. */
export interface Listing {
  /** The origin publishes skills by it (a `## Skills` section; an index document, even one that cannot be read). */
  publishes: boolean;
  candidates: SkillCandidate[];
  /** The index in use, whose signing fields lib/probe/keys.ts reads; null for a listing that is none, or an unreadable one. */
  index: ParsedIndex | null;
}

/** Reads one present listing; its findings go to `diagnostics`, an unreadable document marks its source `invalid`. */
export type ListingParser = (doc: DocOutcome, bytes: Uint8Array, origin: string, diagnostics: Diagnostic[]) => Listing;

function llmsTxt(doc: DocOutcome, bytes: Uint8Array, origin: string, diagnostics: Diagnostic[]): Listing {
  const llms = parseLlmsTxt(bytes, doc.finalUrl, origin);
  diagnostics.push(...llms.diagnostics);
  if (!llms.hasSkillsSection) diagnostics.push(diag('no-skills-section', 'llms.txt has no `## Skills` section.', { url: doc.finalUrl }));
  return { publishes: llms.hasSkillsSection, candidates: llms.candidates, index: null };
}

function indexJson(source: 'index' | 'legacy-index'): ListingParser {
  return (doc, bytes, origin, diagnostics) => {
    const parsed = parseIndex(bytes, doc.finalUrl, origin, source);
    if ('invalid' in parsed) {
      doc.source.outcome = 'invalid';
      doc.source.reason = parsed.code;
      diagnostics.push(diag('index-invalid', `${parsed.message} (${parsed.code})`, { url: doc.finalUrl }));
      return { publishes: true, candidates: [], index: null };
    }
    diagnostics.push(...parsed.diagnostics);
    return { publishes: true, candidates: parsed.candidates, index: parsed };
  };
}

/** The legacy index is asked for only in place of the current one (DOCUMENTS `insteadOf`); when it is read, that is said. */
function legacyIndex(doc: DocOutcome, bytes: Uint8Array, origin: string, diagnostics: Diagnostic[]): Listing {
  const listing = indexJson('legacy-index')(doc, bytes, origin, diagnostics);
  if (listing.index) diagnostics.push(diag('legacy-index-used', 'The current index is absent; the legacy index is used.', { url: doc.finalUrl }));
  return listing;
}

export const LISTING_PARSERS = {
  'llms-txt': llmsTxt,
  index: indexJson('index'),
  'legacy-index': legacyIndex,
} as const satisfies Record<CandidateSource, ListingParser>;
