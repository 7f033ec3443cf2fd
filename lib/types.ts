// The shared contracts of lib/: the injected I/O, the statuses, the kinds of document (DOCUMENTS), the diagnostic, and the report
// contract of docs/report.md (OriginReport and every type it reaches), and Settings, which the
// messages, the store and the export file share (its one set of checks: lib/trust/settings.ts).
// The popup, the options page, the diagnostics export and the tests read OriginReport and nothing
// else.
//
// Everything else lives beside the module that produces it: the parsers' results in lib/parse/
// (candidate.ts, llms-txt.ts, index-json.ts, skill-md.ts, merge.ts), the fetch result in
// lib/net/fetch-result.ts, the digest check and the archive result in lib/verify/ (digest.ts,
// archive.ts), and the store records (key history, stored skills, probe cache) in
// lib/trust/records.ts.

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

/** What one status means to the rest of Skillpin (a row of STATUSES). */
export interface StatusRow {
  /** A user may approve a skill with this status and hand it on (PRODUCT.md §4). */
  approvable: boolean;
  /** It turns the toolbar badge into a warning. */
  warning: boolean;
  /** Its words in the catalogue (lib/i18n/status.ts, where a type check keeps each one a message key). */
  label: `status_${string}`;
}

/**
 * Every status, one row each, in the order the pages list them: a status with no row, or a row
 * of no status, does not compile. ALL_STATUSES, APPROVABLE_STATUSES and WARNING_STATUSES come from it.
 */
export const STATUSES = {
  'verified-signed': { approvable: true, warning: false, label: 'status_verified_signed' },
  verified: { approvable: true, warning: false, label: 'status_verified' },
  unverified: { approvable: true, warning: false, label: 'status_unverified' },
  'digest-mismatch': { approvable: false, warning: true, label: 'status_digest_mismatch' },
  'sources-disagree': { approvable: false, warning: true, label: 'status_sources_disagree' },
  'bad-signature': { approvable: false, warning: true, label: 'status_bad_signature' },
  'key-changed': { approvable: false, warning: true, label: 'status_key_changed' },
  'content-changed': { approvable: false, warning: true, label: 'status_content_changed' },
  'fetch-failed': { approvable: false, warning: false, label: 'status_fetch_failed' },
  'too-large': { approvable: false, warning: false, label: 'status_too_large' },
  invalid: { approvable: false, warning: false, label: 'status_invalid' },
  unsupported: { approvable: false, warning: false, label: 'status_unsupported' },
} as const satisfies Record<SkillStatus, StatusRow>;

export const ALL_STATUSES: readonly SkillStatus[] = Object.keys(STATUSES) as SkillStatus[];

/** Statuses a user may approve and hand on (PRODUCT.md §4). */
export const APPROVABLE_STATUSES: readonly SkillStatus[] = ALL_STATUSES.filter((s) => STATUSES[s].approvable);

/** Statuses that turn the toolbar badge into a warning. */
export const WARNING_STATUSES: readonly SkillStatus[] = ALL_STATUSES.filter((s) => STATUSES[s].warning);

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
   * parser (lib/engine/listings.ts LISTING_PARSERS). `document`: another discovery document, asked
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

/**
 * Every kind of document, one row each, in the order the discover phase asks for them: a kind with
 * no row, or a row of no kind, does not compile. Adding a discovery source is one row here (and its
 * DocumentKind), one parser in lib/engine/listings.ts and its label in both locales.
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
    rank: null,
    statesType: false,
    insteadOf: null,
  },
  attestations: {
    role: 'document',
    path: '/.well-known/agent-skills/attestations.json',
    cap: 256 * KiB,
    accept: 'application/json, text/plain;q=0.5, */*;q=0.1',
    sniff: 'json',
    label: 'doc_attestations',
    title: 'attestations.json',
    rank: null,
    statesType: false,
    insteadOf: null,
  },
  'skill-md': {
    role: 'artifact',
    path: null,
    cap: 256 * KiB,
    accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
    sniff: 'text',
    label: 'doc_skill_md',
    title: 'SKILL.md',
    rank: null,
    statesType: false,
    insteadOf: null,
  },
  archive: {
    role: 'artifact',
    path: null,
    cap: 16 * MiB,
    accept: 'application/zip, application/gzip, application/x-gzip;q=0.9, application/octet-stream;q=0.5, */*;q=0.1',
    sniff: 'text',
    label: 'doc_archive',
    title: 'the archive',
    rank: null,
    statesType: false,
    insteadOf: null,
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

// ---------------------------------------------------------------------------
// Declared digests (lib/parse produces them; SkillReport shows them)
// ---------------------------------------------------------------------------

export interface DeclaredDigest {
  source: CandidateSource;
  field: 'inline-sha256' | 'index-digest' | 'index-sha256';
  /** Lowercase hex, 64 chars. */
  hex: string;
}

// ---------------------------------------------------------------------------
// Verification results the report shows (lib/verify)
// ---------------------------------------------------------------------------

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
  /** A regular file's SHA-256 (raw bytes, lowercase hex); absent for directories and in listings stored by an older version. */
  sha256?: string;
}

/** One regular file of an archive besides its root SKILL.md, by its raw SHA-256 (FORMATS.md §6.6). */
export interface ArchiveFileDigest {
  path: string;
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

/**
 * What an approval of an archive skill binds besides the root SKILL.md (PRODUCT.md §9.2,
 * FORMATS.md §6.6): the set of its other files, by path and digest.
 */
export interface ArchiveBinding {
  /** SHA-256 of the file set (lib/verify/file-set.ts): equal for every archive that holds the same files. */
  filesDigest: string;
  /** The raw SHA-256 of the archive as approved, recorded beside (a re-packed archive with the same files differs here only). */
  sha256: string;
  /** Every regular file besides the root SKILL.md, sorted by path (code-point order). */
  files: ArchiveFileDigest[];
}

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
  /**
   * For an archive skill: the files the approval binds besides the root SKILL.md. Absent for a
   * SKILL.md skill, and on an archive approval stored by an older version, which bound the root
   * SKILL.md only: such an approval is suspended until the user approves again (PRODUCT.md §9.2).
   */
  archive?: ArchiveBinding;
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
  /**
   * Hand the approved skills that may be used now to Skillpin's desktop program (docs/desktop.md).
   * Off by default; it works only while the browser grants the optional nativeMessaging permission.
   */
  desktopMirror: boolean;
  /** The agents whose skill folders the desktop program copies skills into (none by default). */
  desktopAgents: AgentId[];
  /**
   * For a skill that grants tools or carries scripts: the agent folders the user confirmed it for,
   * each bound to the skill's mirror revision (its content and approval), so a change asks again.
   */
  desktopConfirmed: DesktopConfirmation[];
}

/**
 * An agent whose skill folder the desktop program may write: one key of AGENT_FOLDERS in
 * lib/desktop/limits.ts (whose `satisfies` keeps the two equal).
 */
export type AgentId = 'claude-code' | 'agents' | 'gemini-cli';

/** The user confirmed that this revision of this skill may be written to this agent's folder. */
export interface DesktopConfirmation {
  origin: string;
  url: string;
  agent: AgentId;
  /** The skill's mirror revision (lib/desktop/revision.ts), 64 hex digits. */
  revision: string;
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
  desktopMirror: false,
  desktopAgents: [],
  desktopConfirmed: [],
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
  /**
   * When suspended: the stable code of the reason (`content-changed`, `archive-files-changed`,
   * `approval-files-unbound`, `key-changed`, …; docs/report.md).
   */
  code?: string;
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
  /**
   * Size in bytes of the skill-context block Copy and Insert hand on (lib/skill-context/block.ts):
   * the header lines and the SKILL.md. Null when there are no bytes.
   */
  contextSize: number | null;
  /** Rough token estimate of that block (bytes / 4, rounded up). */
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
  /**
   * For archives: the format, the listing (empty until unpacked; each file with its SHA-256), the
   * raw SHA-256 of the archive (what its index declares) and the digest of its file set (what an
   * approval binds besides the root SKILL.md; absent until unpacked).
   */
  archive: SkillArchive | null;
  /** The artifact was served from stored verified bytes (no body re-downloaded). */
  fromStore: boolean;
  diagnostics: Diagnostic[];
}

/** An archive skill's listing as the report shows it (SkillReport.archive). */
export interface SkillArchive {
  format: 'zip' | 'tar.gz';
  entries: ArchiveEntry[];
  sha256?: string;
  filesDigest?: string;
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
