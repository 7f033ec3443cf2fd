// The report contract of docs/report.md: OriginReport and every type it reaches.
import type { Diagnostic } from './diagnostics';
import type { CandidateSource, SourceReport } from './documents';
import type { SkillStatus } from './statuses';
import type { SkillReview } from './review';
import type { Approval, Pin } from './trust';
import type { AdvisoryFlag, ArchiveEntry, AttestationReport, DeclaredDigest, SignatureState, SnapshotReport } from './verification';

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
  /**
   * The block in parts, in bytes: the skill (SKILL.md as text), Skillpin's full header around it and
   * the short one (Settings.shortHeader). `contextSize` is `skill` plus the header the settings choose
   * (the background sets it when it answers: lib/report/context-header.ts). Null when there are no bytes.
   */
  contextParts: { skill: number; header: number; shortHeader: number } | null;
  signature: { state: SignatureState; message: string | null };
  status: SkillStatus;
  /** A stable diagnostic code explaining the status. */
  statusCode: string;
  statusMessage: string;
  approval: ApprovalReport;
  advisory: AdvisoryFlag[];
  /**
   * What every file of the skill can do (PRODUCT.md §6.1, docs/report.md "review"): findings by kind and
   * severity. Null when no verified bytes are at hand.
   */
  review: SkillReview | null;
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
