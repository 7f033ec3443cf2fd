// The kinds of document a probe reads, one record (DOCUMENTS) with where each lives, its cap and how it is read; and one probed source as the report shows it.

// ---------------------------------------------------------------------------
// Sources (docs/report.md, SourceReport)
// ---------------------------------------------------------------------------

/** What a document or artifact request is for (a SourceReport's kind, a probe-cache entry's kind): a row of DOCUMENTS. */
export type DocumentKind = 'llms-txt' | 'index' | 'legacy-index' | 'signing-key' | 'attestations' | 'skill-md' | 'archive';

const KiB = 1024;
const MiB = 1024 * KiB;

/** What one kind of document is to the rest of Skillpin (a row of DOCUMENTS). */
export interface DocumentRow {
  /**
   * `listing`: it lists skills; the discover phase asks for it and the parse phase reads it with its
   * parser (lib/probe/listings.ts LISTING_PARSERS). `document`: another discovery document, asked
   * for by the phase that uses it (the key, the attestations). `artifact`: at the URLs the listings give.
   */
  role: 'listing' | 'document' | 'artifact';
  /** Where it lives on the origin; null for artifacts. */
  path: `/${string}` | null;
  /** Byte cap of one body (PRODUCT.md §2.3, FORMATS.md §9.1). */
  cap: number;
  /** The Accept header of its requests. */
  accept: string;
  /**
   * How a 200 body is told to be an HTML page instead (FORMATS.md §9.4, lib/net/html-sniff.ts):
   * `json` when it starts with `<`; `text` when it starts with an HTML tag, or with `<` under text/html.
   */
  sniff: 'json' | 'text';
  /** Its words in the catalogue (lib/i18n/document.ts, where a type check keeps each one a message key). */
  label: `source_${string}` | `doc_${string}`;
  /** Its name in the technical English of diagnostics ("differs from … in the index"). */
  title: string;
  /**
   * Listings only: the order merging takes candidates in, lowest first (FORMATS.md §2.6); null for
   * the others.
   */
  rank: number | null;
  /** Listings only: each entry states its type (an index) rather than implying it by its URL (llms.txt); a stated type wins in merging. */
  statesType: boolean;
  /**
   * Asked for only in place of another listing: when that one is absent and the setting is on; its
   * parse then stands in for that one's.
   */
  insteadOf: { kind: DocumentKind; setting: 'legacyIndex' } | null;
}

/** The listing fields of a row that lists no skills. */
const NOT_LISTING = { rank: null, statesType: false, insteadOf: null } as const;

/**
 * Every kind of document, one row each, in the order the discover phase asks for them: a kind with
 * no row, or a row of no kind, does not compile. Adding a discovery source is one row here (and its
 * DocumentKind), one parser in lib/probe/listings.ts and its label in both locales.
 */
export const DOCUMENTS = {
  'llms-txt': {
    role: 'listing',
    path: '/llms.txt',
    cap: 1 * MiB,
    accept: 'text/plain, text/markdown;q=0.9, */*;q=0.1',
    sniff: 'text',
    label: 'source_llms_txt',
    title: 'llms.txt',
    rank: 0,
    statesType: false,
    insteadOf: null,
  },
  index: {
    role: 'listing',
    path: '/.well-known/agent-skills/index.json',
    cap: 256 * KiB,
    accept: 'application/json, text/plain;q=0.5, */*;q=0.1',
    sniff: 'json',
    label: 'source_index',
    title: 'the index',
    rank: 1,
    statesType: true,
    insteadOf: null,
  },
  'legacy-index': {
    role: 'listing',
    path: '/.well-known/skills/index.json',
    cap: 256 * KiB,
    accept: 'application/json, text/plain;q=0.5, */*;q=0.1',
    sniff: 'json',
    label: 'source_legacy_index',
    title: 'the legacy index',
    rank: 2,
    statesType: true,
    insteadOf: { kind: 'index', setting: 'legacyIndex' },
  },
  'signing-key': {
    role: 'document',
    path: '/.well-known/agent-skills/signing-key.pub',
    cap: 256 * KiB,
    accept: 'text/plain, application/octet-stream;q=0.5, */*;q=0.1',
    sniff: 'text',
    label: 'doc_signing_key',
    title: 'signing-key.pub',
    ...NOT_LISTING,
  },
  attestations: {
    role: 'document',
    path: '/.well-known/agent-skills/attestations.json',
    cap: 256 * KiB,
    accept: 'application/json, text/plain;q=0.5, */*;q=0.1',
    sniff: 'json',
    label: 'doc_attestations',
    title: 'attestations.json',
    ...NOT_LISTING,
  },
  'skill-md': {
    role: 'artifact',
    path: null,
    cap: 256 * KiB,
    accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
    sniff: 'text',
    label: 'doc_skill_md',
    title: 'SKILL.md',
    ...NOT_LISTING,
  },
  archive: {
    role: 'artifact',
    path: null,
    cap: 16 * MiB,
    accept: 'application/zip, application/gzip, application/x-gzip;q=0.9, application/octet-stream;q=0.5, */*;q=0.1',
    sniff: 'text',
    label: 'doc_archive',
    title: 'the archive',
    ...NOT_LISTING,
  },
} as const satisfies Record<DocumentKind, DocumentRow>;

export const DOCUMENT_KINDS: readonly DocumentKind[] = Object.keys(DOCUMENTS) as DocumentKind[];

/** The kinds of document that list skills (role `listing`): where a candidate, a declared digest, a report's `sources` come from. */
export type CandidateSource = { [K in DocumentKind]: (typeof DOCUMENTS)[K]['role'] extends 'listing' ? K : never }[DocumentKind];

/** The listings in the order the discover phase asks for them. */
export const CANDIDATE_SOURCES: readonly CandidateSource[] = DOCUMENT_KINDS.filter((k): k is CandidateSource => DOCUMENTS[k].role === 'listing');

/** SKILL.md and archives are artifacts (at URLs the listings give); everything else is a discovery document. */
export function isArtifactKind(kind: DocumentKind): boolean {
  return DOCUMENTS[kind].role === 'artifact';
}

/**
 * How one bounded GET ended: the `kind` of lib/net/fetch-result.ts FetchResult, which checks at
 * compile time that the two lists stay equal.
 */
export type FetchOutcome = 'ok' | 'not-modified' | 'absent' | 'transient' | 'too-large' | 'blocked';

/** One probed source as the report shows it (PRODUCT.md §8). */
export interface SourceReport {
  kind: DocumentKind;
  url: string;
  finalUrl: string | null;
  /** HTTP status, or null when no response was received. */
  httpStatus: number | null;
  outcome: FetchOutcome | 'cached' | 'skipped' | 'invalid';
  reason: string | null;
  contentType: string | null;
  bytes: number | null;
  ms: number | null;
  /** Served from the probe cache without a request. */
  fromCache: boolean;
}
