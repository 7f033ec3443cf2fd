// Hard limits of the probe (PRODUCT.md §2.3, §2.7; FORMATS.md §9.1, §9.6). Sizes in bytes, times in ms.
import { DOCUMENTS, type DocumentKind } from '../types';

const KiB = 1024;
const MiB = 1024 * KiB;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The probe's limits; the byte cap of each kind of document is its row of DOCUMENTS (lib/types/documents.ts), read through capFor. */
export const LIMITS = {
  /** Sum of the unpacked file sizes of one archive. */
  archiveUnpacked: 16 * MiB,
  /** Entries in one archive. */
  archiveFiles: 512,
  /**
   * Artifact bytes downloaded by one probe of one origin, all artifacts together: 64
   * SKILL.md of 256 KiB are 16 MiB, and a site's archives are far smaller than their 16 MiB cap, so
   * a legitimate site stays under it; the 32 MiB stored per origin (PRODUCT.md §3) is the same figure.
   */
  probeDownload: 32 * MiB,
  /** One request, headers and body together. */
  timeoutMs: 10_000,
  maxRedirects: 5,
  maxSkillsPerOrigin: 64,
  /**
   * Artifacts fetched at the same time from one host: what Chromium and Firefox give one host
   * over HTTP/1.1 (6 connections). While one lane hashes and verifies a body, the others download.
   */
  artifactConcurrency: 6,
  negativeTtlMs: 24 * HOUR,
  minPositiveTtlMs: 5 * MINUTE,
  maxPositiveTtlMs: 24 * HOUR,
} as const;

/** The byte cap for one document of the given kind (for an archive: the bytes downloaded). */
export function capFor(kind: DocumentKind): number {
  return DOCUMENTS[kind].cap;
}
