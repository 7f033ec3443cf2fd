// The records the trust store keeps besides the pins and approvals the report shows (those are in
// lib/types/): the key history, the verified bytes of each skill, the probe cache, and what the
// cache and reports stores hold of them.
import type { ArchiveEntry, DocumentKind, OriginReport } from '../types';

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

/** The verified bytes of a skill, kept so that what is shown and handed on is never re-fetched. */
export interface StoredSkill {
  origin: string;
  url: string;
  digestLf: string;
  digestRaw: string;
  /** The SKILL.md bytes (for archives: the root SKILL.md). */
  bytes: Uint8Array;
  storedAt: number;
  /**
   * For an archive: the raw SHA-256 of the verified archive (the digest its index declares), its
   * listing (each file with its SHA-256) and the digest of its file set (FORMATS.md §6.6).
   */
  archive?: {
    sha256: string;
    format: 'zip' | 'tar.gz';
    entries: ArchiveEntry[];
    /**
     * fileSetDigest of every file but the root SKILL.md: with the LF digest, what identifies these
     * bytes (the store keys records by both). Absent on records stored by an older version, whose
     * files were never digested: such a record is never handed on for an approval that binds files,
     * and it is downloaded again rather than reused.
     */
    filesDigest?: string;
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

/**
 * What a stored skill is keyed by beside (origin, url, digestLf): the digest of its file set for an
 * archive, '' for a SKILL.md skill (and for an archive record stored by an older version). Two
 * archives with the same SKILL.md but other files are two records: a new archive never overwrites
 * the bytes an approval binds.
 */
export function filesKeyOf(s: { archive?: { filesDigest?: string } }): string {
  return s.archive?.filesDigest ?? '';
}

/** The identity of stored bytes as one string: origin, url, LF digest and files key (of an approval: of the bytes it binds). */
export function storedKey(s: Pick<StoredSkill, 'origin' | 'url' | 'digestLf'> & { archive?: { filesDigest?: string } }): string {
  return `${s.origin}\n${s.url}\n${s.digestLf}\n${filesKeyOf(s)}`;
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
   * declared digests; afterwards it is revalidated with the entry's validators (lib/probe/artifact-obtain.ts).
   */
  digestFailure?: DigestFailure;
}

/** What the cache store holds: the entry plus the key the eviction index reads. */
export interface CacheRecord extends ProbeCacheEntry {
  evictKey: [number, number];
}

/** What the reports store holds: the report plus a numeric order for eviction. */
export interface ReportRecord {
  origin: string;
  /** finishedAt, else startedAt, else 0: older reports are evicted first. */
  order: number;
  report: OriginReport;
}

export interface DigestFailure {
  /** The declared sha256 values (lower-case hex, sorted, unique), joined by ','. */
  declared: string;
  /** SHA-256 of the bytes as served (for an archive: of the archive). */
  rawHex: string;
  /** SHA-256 after CRLF → LF (for an archive: equal to rawHex). */
  lfHex: string;
}
