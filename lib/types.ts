// The shared vocabulary of the engine. Every module in lib/ speaks these types;
// the popup, the options page, the diagnostics export and the tests read
// OriginReport and nothing else. docs/report.md documents the same shapes.

// ---------------------------------------------------------------------------
// Injected I/O
// ---------------------------------------------------------------------------

/** The subset of `fetch` the engine uses. Tests inject a stub or a loopback server. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Wall clock in milliseconds since the epoch. Tests inject a fake one. */
export interface Clock {
  now(): number;
}

// ---------------------------------------------------------------------------
// Statuses (PRODUCT.md §4, precedence FORMATS.md §10)
// ---------------------------------------------------------------------------

export type SkillStatus =
  | 'verified-signed'
  | 'verified'
  | 'unverified'
  | 'digest-mismatch'
  | 'sources-disagree'
  | 'bad-signature'
  | 'key-changed'
  | 'content-changed'
  | 'fetch-failed'
  | 'too-large'
  | 'invalid'
  | 'unsupported';

export const ALL_STATUSES: readonly SkillStatus[] = [
  'verified-signed',
  'verified',
  'unverified',
  'digest-mismatch',
  'sources-disagree',
  'bad-signature',
  'key-changed',
  'content-changed',
  'fetch-failed',
  'too-large',
  'invalid',
  'unsupported',
];

/** Statuses a user may approve and hand on (PRODUCT.md §4). */
export const APPROVABLE_STATUSES: readonly SkillStatus[] = ['verified-signed', 'verified', 'unverified'];

/** Statuses that turn the toolbar badge into a warning. */
export const WARNING_STATUSES: readonly SkillStatus[] = [
  'key-changed',
  'digest-mismatch',
  'bad-signature',
  'sources-disagree',
  'content-changed',
];

export function isApprovable(status: SkillStatus): boolean {
  return APPROVABLE_STATUSES.includes(status);
}

// ---------------------------------------------------------------------------
// Diagnostics: stable codes, human message
// ---------------------------------------------------------------------------

export type DiagnosticLevel = 'info' | 'warning' | 'error';

export interface Diagnostic {
  /** Stable, kebab-case code (listed in docs/report.md). Tests match on it. */
  code: string;
  level: DiagnosticLevel;
  message: string;
  /** The document or artifact URL the diagnostic is about, when there is one. */
  url?: string;
  /** 1-based line in the document, when known. */
  line?: number;
}

// ---------------------------------------------------------------------------
// Network (lib/net)
// ---------------------------------------------------------------------------

export type DocumentKind =
  | 'llms-txt'
  | 'index'
  | 'legacy-index'
  | 'signing-key'
  | 'attestations'
  | 'skill-md'
  | 'archive';

/** What one bounded GET produced. Bytes are raw: never decoded then re-encoded. */
export type FetchResult =
  | {
      kind: 'ok';
      url: string;
      finalUrl: string;
      status: number;
      contentType: string | null;
      bytes: Uint8Array;
      etag: string | null;
      lastModified: string | null;
      cacheControl: string | null;
      redirects: number;
      ms: number;
    }
  | { kind: 'not-modified'; url: string; finalUrl: string; status: 304; ms: number; cacheControl: string | null; etag: string | null; lastModified: string | null }
  | {
      /** 404/410/401/403, HTML soft-404, cross-origin redirect of a discovery document, >5 redirects. */
      kind: 'absent';
      url: string;
      finalUrl: string | null;
      status: number | null;
      reason: 'not-found' | 'forbidden' | 'client-error' | 'html' | 'cross-origin-redirect' | 'too-many-redirects' | 'redirect-blocked';
      contentType: string | null;
      ms: number;
    }
  | {
      /** 429, 5xx, timeout, network error: keep the last good state, retry with backoff. */
      kind: 'transient';
      url: string;
      status: number | null;
      reason: 'timeout' | 'network' | 'server-error' | 'rate-limited';
      retryAfterMs: number | null;
      ms: number;
    }
  | { kind: 'too-large'; url: string; finalUrl: string | null; status: number | null; limit: number; contentType: string | null; ms: number }
  | { kind: 'blocked'; url: string; reason: string; ms: number };

/** One probed source as the report shows it (PRODUCT.md §8). */
export interface SourceReport {
  kind: DocumentKind;
  url: string;
  finalUrl: string | null;
  /** HTTP status, or null when no response was received. */
  httpStatus: number | null;
  outcome: FetchResult['kind'] | 'cached' | 'skipped' | 'invalid';
  reason: string | null;
  contentType: string | null;
  bytes: number | null;
  ms: number | null;
  /** Served from the probe cache without a request. */
  fromCache: boolean;
}

// ---------------------------------------------------------------------------
// Parsing (lib/parse)
// ---------------------------------------------------------------------------

export type CandidateSource = 'llms-txt' | 'index' | 'legacy-index';

export interface DeclaredDigest {
  source: CandidateSource;
  field: 'inline-sha256' | 'index-digest' | 'index-sha256';
  /** Lowercase hex, 64 chars. */
  hex: string;
}

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

export interface ParsedLlmsTxt {
  /** True when at least one `## Skills` section exists. */
  hasSkillsSection: boolean;
  candidates: SkillCandidate[];
  diagnostics: Diagnostic[];
}

export interface ParsedIndex {
  source: 'index' | 'legacy-index';
  schema: string | null;
  shape: 'v0.2' | 'v0.1' | 'mixed' | 'empty' | 'other';
  /** Top-level `signing_alg`, verbatim. */
  signingAlg: string | null;
  /** Top-level `signing_key`, verbatim (base64 of 32 raw bytes, unchecked). */
  signingKey: string | null;
  candidates: SkillCandidate[];
  diagnostics: Diagnostic[];
}

/** An index document that could not be used at all. */
export interface InvalidDocument {
  invalid: true;
  code: string;
  message: string;
}

export interface Frontmatter {
  /** The parsed mapping, or null when absent or unparseable. */
  data: Record<string, unknown> | null;
  name: string | null;
  description: string | null;
  version: string | null;
  license: string | null;
  compatibility: string | null;
  /** Non-string top-level version (an error for snapshot-v1). */
  versionIsNonString: boolean;
  diagnostics: Diagnostic[];
}

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

// ---------------------------------------------------------------------------
// Verification (lib/verify)
// ---------------------------------------------------------------------------

export interface DigestCheck {
  rawHex: string;
  lfHex: string;
  /** Which form matched every declared digest, or null when nothing was declared or none matched. */
  matchedForm: 'raw' | 'lf-normalized' | null;
  /** Nothing declared. */
  undeclared: boolean;
  /** At least one declared digest matched neither form. */
  mismatch: boolean;
}

export type SignatureState =
  | 'valid'
  | 'invalid'
  /** The origin signs but this entry has no signature. */
  | 'missing'
  /** The origin does not sign; any signature present is ignored. */
  | 'not-signing'
  /** Not evaluated (refused earlier or key problem). */
  | 'not-checked';

export interface ArchiveEntry {
  path: string;
  size: number;
  type: 'file' | 'directory';
}

export type ArchiveResult =
  | { ok: true; format: 'zip' | 'tar.gz'; entries: ArchiveEntry[]; files: Map<string, Uint8Array>; skillMd: Uint8Array }
  | { ok: false; status: 'invalid' | 'too-large' | 'unsupported'; code: string; message: string };

export type AttestationVerdict = 'invalid' | 'attested' | 'expired' | 'unattested';

export interface AttestationReport {
  verdict: AttestationVerdict;
  attester: string | null;
  validUntil: string | null;
  message: string;
  /** Stable kebab-case code for the verdict's reason (optional). */
  code?: string;
}

export interface SnapshotReport {
  state: 'verified' | 'failed';
  revision: string | null;
  message: string;
  /** Stable kebab-case code for the result (optional). */
  code?: string;
}

export type AdvisoryFlagCode =
  | 'invisible-unicode'
  | 'bidi-control'
  | 'html-comment'
  | 'long-line'
  | 'ignore-previous-instructions'
  | 'cross-origin-link'
  | 'hidden-markdown'
  | 'executable-tool'
  | 'declares-tools'
  | 'hidden-in-name';

export interface AdvisoryFlag {
  code: AdvisoryFlagCode;
  message: string;
  /** How many occurrences, when countable. */
  count?: number;
}

// ---------------------------------------------------------------------------
// Trust (lib/trust)
// ---------------------------------------------------------------------------

export interface Pin {
  origin: string;
  /** Base64 of the raw 32-byte ed25519 key. */
  key: string;
  fingerprint: string;
  firstSeen: number;
  lastSeen: number;
}

/**
 * What became of one key an origin has shown (PRODUCT.md §5, key history): `pinned` is the pin
 * now, `replaced` was pinned until the user trusted another key, `offered` was shown but never
 * trusted, `revoked` was marked by the user and is never accepted again for the origin.
 */
export type KeyHistoryState = 'pinned' | 'replaced' | 'offered' | 'revoked';

/** One fingerprint an origin has shown. Revoked entries outlive "forget"; the others do not. */
export interface KeyHistoryEntry {
  origin: string;
  fingerprint: string;
  /** Base64 of the raw key; null for a revocation of a key this browser never saw (imported). */
  key: string | null;
  firstSeen: number;
  lastSeen: number;
  state: KeyHistoryState;
  /** When the user revoked it; null unless state is `revoked`. */
  revokedAt: number | null;
}

export interface Approval {
  origin: string;
  url: string;
  /** SHA-256 of the LF-normalized bytes (PRODUCT.md §9.2). */
  digestLf: string;
  /** SHA-256 of the raw bytes, recorded beside it. */
  digestRaw: string;
  /** Fingerprint of the pinned key at approval time; null when the origin did not sign. */
  keyFingerprint: string | null;
  /** The status the skill had when it was approved. */
  statusAtApproval: SkillStatus;
  name: string;
  approvedAt: number;
}

/** The verified bytes of a skill, kept so that what is shown and handed on is never re-fetched. */
export interface StoredSkill {
  origin: string;
  url: string;
  digestLf: string;
  digestRaw: string;
  /** The SKILL.md bytes (for archives: the root SKILL.md). */
  bytes: Uint8Array;
  storedAt: number;
  /** For an archive: the raw SHA-256 of the verified archive and its listing (the digest its index declares). */
  archive?: {
    sha256: string;
    format: 'zip' | 'tar.gz';
    entries: ArchiveEntry[];
    /**
     * The archive's verified regular files besides the root SKILL.md, by path, kept so that an
     * export for upload holds them without a re-fetch. Absent on records stored by an older version.
     */
    files?: { path: string; bytes: Uint8Array }[];
  };
  /**
   * The ed25519 signature these bytes (by their digestLf) were last verified with, and the
   * fingerprint of the key that verified it. A probe that meets the same key, signature and
   * digest again does not verify again (PRODUCT.md §2.7).
   */
  signatureVerified?: { fingerprint: string; signature: string };
}

export interface ProbeCacheEntry {
  /** Request URL. */
  url: string;
  origin: string;
  kind: DocumentKind;
  positive: boolean;
  status: number | null;
  finalUrl: string | null;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  /** Raw body of a positive discovery document (never for artifacts: those live in StoredSkill). */
  bytes: Uint8Array | null;
  storedAt: number;
  expiresAt: number;
  /** Consecutive transient failures (429, 5xx, timeout) since the last good answer. */
  failures?: number;
  /** No request before this time (backoff after transient failures). */
  retryAt?: number;
  /** Why a negative entry is negative: the `absent` reason, `too-large`, or `transient` (no good answer yet). */
  reason?: string;
  /**
   * An artifact whose downloaded bytes failed their declared digest: what was declared and what
   * the bytes were. While the entry is fresh the artifact is not downloaded again for the same
   * declared digests; afterwards it is revalidated with the entry's validators (lib/engine/artifacts.ts).
   */
  digestFailure?: DigestFailure;
}

export interface DigestFailure {
  /** The declared sha256 values (lower-case hex, sorted, unique), joined by ','. */
  declared: string;
  /** SHA-256 of the bytes as served (for an archive: of the archive). */
  rawHex: string;
  /** SHA-256 after CRLF → LF (for an archive: equal to rawHex). */
  lfHex: string;
}

export interface ReviewerRegistry {
  [attester: string]: { public_key: string; registered_at: string };
}

export interface SnapshotKeyConfig {
  origin: string;
  skillId: string;
  publicKey: string;
  signature: string;
  keyId?: string;
  revisionPin?: string;
  versionPin?: string;
}

export interface Settings {
  paused: boolean;
  probeInPrivate: boolean;
  /** Origins (or `*.host` patterns) that are always probed even when `allowListOnly`. */
  allowList: string[];
  /** Origins (or `*.host` patterns) never probed. */
  denyList: string[];
  /** Probe only allow-listed origins. */
  allowListOnly: boolean;
  legacyIndex: boolean;
  reviewers: ReviewerRegistry;
  snapshotKeys: SnapshotKeyConfig[];
  /**
   * Exact http(s) origins (`scheme://host[:port]`, no path) the user treats as chat sites
   * besides the built-in adapters: the popup offers "Insert into chat" for their tabs and
   * the context menu's "Insert skill context" appears on them.
   */
  chatSites: string[];
}

export const DEFAULT_SETTINGS: Settings = {
  paused: false,
  probeInPrivate: false,
  allowList: [],
  denyList: [],
  allowListOnly: false,
  legacyIndex: true,
  reviewers: {},
  snapshotKeys: [],
  chatSites: [],
};

// ---------------------------------------------------------------------------
// The report (docs/report.md)
// ---------------------------------------------------------------------------

export type KeyState =
  /** The origin does not sign and was never pinned. */
  | 'none'
  /** First key seen on this probe; pinned silently. */
  | 'pinned-now'
  /** The offered key equals the pin. */
  | 'match'
  /** The offered key differs from the pin. */
  | 'changed'
  /** `signing_key` and `signing-key.pub` disagree. */
  | 'conflict'
  /** The origin is pinned but no longer offers a usable key. */
  | 'stopped-signing'
  /** The offered key is one the user revoked for this origin: never pinned, never verified against. */
  | 'revoked';

export interface KeyInfo {
  key: string;
  fingerprint: string;
  source: 'index' | 'signing-key.pub';
}

export interface KeyReport {
  state: KeyState;
  pinned: Pin | null;
  /** The key the origin offers now (index `signing_key`, else `signing-key.pub`). */
  offered: KeyInfo | null;
  /** The second, different key when state is `conflict`. */
  conflicting: KeyInfo | null;
  /** The key could not be evaluated on this probe (a key document was transiently unreachable). */
  unavailable?: boolean;
  /**
   * Where `pinned` came from when it is not trust on first use: `policy` is a key the
   * administrator pinned for the origin (docs/policies.md), which the user cannot replace.
   */
  pinnedBy?: 'policy';
}

export interface ApprovalReport {
  state: 'none' | 'approved' | 'suspended';
  approval: Approval | null;
  /** Why a suspended approval is suspended (a status code). */
  suspendedBecause: SkillStatus | null;
}

export interface SkillReport {
  /** origin + ' ' + url: unique within the extension. */
  id: string;
  url: string | null;
  rawUrls: string[];
  type: 'skill-md' | 'archive';
  sources: CandidateSource[];
  /** The name to display (frontmatter, then index, then llms.txt, then URL segment). */
  name: string;
  names: { llmsTxt: string | null; index: string | null; frontmatter: string | null };
  description: string | null;
  /** Where `description` came from. */
  descriptionFrom: 'frontmatter' | 'index' | 'llms-txt' | null;
  version: string | null;
  license: string | null;
  homepage: string | null;
  scope: string | null;
  tool: { path: string; sha256: string | null } | null;
  /** True when the artifact is listed on, or redirected to, another origin than the probed one. */
  crossOrigin: boolean;
  /** The host that served the artifact (after redirects), else the listed one. */
  artifactHost: string | null;
  /** Where the artifact was served from after redirects; null when it was never fetched. */
  finalUrl: string | null;
  declared: DeclaredDigest[];
  actual: { raw: string; lf: string; matchedForm: 'raw' | 'lf-normalized' | null } | null;
  size: number | null;
  /** Rough token estimate of the SKILL.md (bytes / 4, rounded up). */
  tokens: number | null;
  signature: { state: SignatureState; message: string | null };
  status: SkillStatus;
  /** A stable diagnostic code explaining the status. */
  statusCode: string;
  statusMessage: string;
  approval: ApprovalReport;
  advisory: AdvisoryFlag[];
  attestation: AttestationReport | null;
  snapshot: SnapshotReport | null;
  /** For archives: the format, the listing (empty until unpacked) and the raw SHA-256 of the archive (what its index declares). */
  archive: { format: 'zip' | 'tar.gz'; entries: ArchiveEntry[]; sha256?: string } | null;
  /** The artifact was served from stored verified bytes (no body re-downloaded). */
  fromStore: boolean;
  diagnostics: Diagnostic[];
}

export type ProbeState = 'idle' | 'probing' | 'done' | 'skipped' | 'error';

export interface OriginReport {
  /** Version of this structure. */
  reportVersion: 1;
  origin: string;
  state: ProbeState;
  /** Why the origin was skipped (`paused`, `deny-listed`, `private-window`, `not-http`, …). */
  skippedBecause: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** True when the origin publishes at least one discovery document. */
  publishes: boolean;
  sources: SourceReport[];
  key: KeyReport;
  skills: SkillReport[];
  diagnostics: Diagnostic[];
  summary: {
    total: number;
    /** Approvable skills. */
    usable: number;
    approved: number;
    /** Skills with a WARNING_STATUSES status. */
    warnings: number;
    byStatus: Partial<Record<SkillStatus, number>>;
  };
}
