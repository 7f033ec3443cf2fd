// What the report shows of declared digests and of verification (lib/parse and lib/verify produce them).
import type { CandidateSource } from './documents';

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
export type ArchiveFileDigest = Required<Pick<ArchiveEntry, 'path' | 'size' | 'sha256'>>;

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
