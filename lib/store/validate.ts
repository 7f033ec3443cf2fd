// Shape checks for every record the trust store reads or writes. A stored record that fails
// its check is skipped by readers (and reported), never deleted; an input that fails is refused.
import { ALL_STATUSES, DOCUMENTS } from '../types';
import type { Approval, ApprovalReview, ArchiveBinding, ArchiveEntry, ArchiveFileDigest, DocumentKind, OriginReport, Pin, ProbeState, SkillStatus } from '../types';
import type { CacheRecord, DigestFailure, KeyHistoryEntry, KeyHistoryState, ProbeCacheEntry, ReportRecord, StoredSkill } from './records';

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function isStringOrNull(v: unknown): v is string | null {
  return v === null || typeof v === 'string';
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

export function isDigestHex(v: unknown): v is string {
  return typeof v === 'string' && HEX64.test(v);
}

export function isSkillStatus(v: unknown): v is SkillStatus {
  return typeof v === 'string' && (ALL_STATUSES as readonly string[]).includes(v);
}

const PROBE_STATES: readonly ProbeState[] = ['idle', 'probing', 'done', 'skipped', 'error'];

/**
 * Bytes come back from structured clone as a Uint8Array; an ArrayBuffer or another view
 * (written by an older build or another engine) is accepted and turned into a Uint8Array.
 */
export function asBytes(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return null;
}

/** A copy whose buffer holds exactly these bytes (a view would clone its whole buffer). */
export function compactBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.constructor === Uint8Array) return bytes;
  return new Uint8Array(bytes);
}

export function toPin(v: unknown): Pin | null {
  if (!isObject(v)) return null;
  const { origin, key, fingerprint, firstSeen, lastSeen } = v;
  if (!isNonEmptyString(origin) || !isNonEmptyString(key) || !isNonEmptyString(fingerprint)) return null;
  if (!isFiniteNumber(firstSeen) || !isFiniteNumber(lastSeen)) return null;
  return { origin, key, fingerprint, firstSeen, lastSeen };
}

const KEY_HISTORY_STATES: readonly KeyHistoryState[] = ['pinned', 'replaced', 'offered', 'revoked'];

export function toKeyHistoryEntry(v: unknown): KeyHistoryEntry | null {
  if (!isObject(v)) return null;
  const { origin, fingerprint, key, firstSeen, lastSeen, state, revokedAt } = v;
  if (!isNonEmptyString(origin) || !isNonEmptyString(fingerprint)) return null;
  if (!(key === null || isNonEmptyString(key))) return null;
  if (!isFiniteNumber(firstSeen) || !isFiniteNumber(lastSeen)) return null;
  if (typeof state !== 'string' || !(KEY_HISTORY_STATES as readonly string[]).includes(state)) return null;
  if (!(revokedAt === null || isFiniteNumber(revokedAt))) return null;
  if ((state === 'revoked') !== (revokedAt !== null)) return null;
  return { origin, fingerprint, key, firstSeen, lastSeen, state: state as KeyHistoryState, revokedAt };
}

export function toApproval(v: unknown): Approval | null {
  if (!isObject(v)) return null;
  const { origin, url, digestLf, digestRaw, keyFingerprint, statusAtApproval, name, approvedAt } = v;
  if (!isNonEmptyString(origin) || !isNonEmptyString(url)) return null;
  if (!isDigestHex(digestLf) || !isDigestHex(digestRaw)) return null;
  if (!(keyFingerprint === null || isNonEmptyString(keyFingerprint))) return null;
  if (!isSkillStatus(statusAtApproval) || typeof name !== 'string' || !isFiniteNumber(approvedAt)) return null;
  const approval: Approval = { origin, url, digestLf, digestRaw, keyFingerprint, statusAtApproval, name, approvedAt };
  // An approval whose file binding cannot be read binds unknown files: the whole record is refused.
  if (v.archive !== undefined) {
    const archive = toArchiveBinding(v.archive);
    if (!archive) return null;
    approval.archive = archive;
  }
  // A record of the review that cannot be read confirms nothing: the approval stands without it.
  const review = toApprovalReview(v.review);
  if (review) approval.review = review;
  return approval;
}

const isKeyList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 10_000 && v.every((k) => typeof k === 'string' && k.length <= 4096);

/** What an approval recorded of the review (PRODUCT.md §6.1), or null when absent or unreadable. */
export function toApprovalReview(v: unknown): ApprovalReview | null {
  if (!isObject(v) || !isNonEmptyString(v.rules) || !isKeyList(v.shown) || !isKeyList(v.confirmed)) return null;
  if (!(v.confirmedAt === null || isFiniteNumber(v.confirmedAt))) return null;
  return { rules: v.rules, shown: [...v.shown], confirmed: [...v.confirmed], confirmedAt: v.confirmedAt };
}

/** One file of a file set: a relative path, a byte count and 64 hex digits. */
export function toFileDigest(v: unknown): ArchiveFileDigest | null {
  if (!isObject(v) || !isNonEmptyString(v.path) || !Number.isSafeInteger(v.size) || (v.size as number) < 0 || !isDigestHex(v.sha256)) return null;
  return { path: v.path, size: v.size as number, sha256: v.sha256.toLowerCase() };
}

/** The files an archive approval binds (FORMATS.md §6.6), or null when any part is unreadable. */
export function toArchiveBinding(v: unknown): ArchiveBinding | null {
  if (!isObject(v) || !isDigestHex(v.filesDigest) || !isDigestHex(v.sha256) || !Array.isArray(v.files)) return null;
  const files: ArchiveFileDigest[] = [];
  const paths = new Set<string>();
  for (const raw of v.files) {
    const f = toFileDigest(raw);
    if (!f || paths.has(f.path)) return null;
    paths.add(f.path);
    files.push(f);
  }
  return { filesDigest: v.filesDigest.toLowerCase(), sha256: v.sha256.toLowerCase(), files };
}

export function toStoredSkill(v: unknown): StoredSkill | null {
  if (!isObject(v)) return null;
  const { origin, url, digestLf, digestRaw, storedAt } = v;
  if (!isNonEmptyString(origin) || !isNonEmptyString(url)) return null;
  if (!isDigestHex(digestLf) || !isDigestHex(digestRaw) || !isFiniteNumber(storedAt)) return null;
  const bytes = asBytes(v.bytes);
  if (!bytes) return null;
  const skill: StoredSkill = { origin, url, digestLf, digestRaw, bytes, storedAt };
  if (v.archive !== undefined) {
    const archive = toArchiveListing(v.archive);
    if (!archive) return null;
    skill.archive = archive;
  }
  // A stored record is keyed by its file-set digest too: a key that disagrees with it is not this record's.
  if (v.filesKey !== undefined && v.filesKey !== (skill.archive?.filesDigest ?? '')) return null;
  // A malformed verification note is dropped, not the bytes: the signature is then verified again.
  const memo = toSignatureVerified(v.signatureVerified);
  if (memo) skill.signatureVerified = memo;
  return skill;
}

function toSignatureVerified(v: unknown): StoredSkill['signatureVerified'] | null {
  if (!isObject(v) || !isNonEmptyString(v.fingerprint) || !isNonEmptyString(v.signature)) return null;
  return { fingerprint: v.fingerprint, signature: v.signature };
}

function toArchiveListing(v: unknown): StoredSkill['archive'] | null {
  if (!isObject(v) || !isDigestHex(v.sha256) || (v.format !== 'zip' && v.format !== 'tar.gz') || !Array.isArray(v.entries)) return null;
  const entries: ArchiveEntry[] = [];
  for (const e of v.entries) {
    if (!isObject(e) || typeof e.path !== 'string' || !isFiniteNumber(e.size) || (e.type !== 'file' && e.type !== 'directory')) return null;
    if (e.sha256 !== undefined && !isDigestHex(e.sha256)) return null;
    entries.push(e.sha256 === undefined ? { path: e.path, size: e.size, type: e.type } : { path: e.path, size: e.size, type: e.type, sha256: e.sha256 });
  }
  const listing: NonNullable<StoredSkill['archive']> = { sha256: v.sha256, format: v.format, entries };
  if (v.filesDigest !== undefined) {
    // The file-set digest is part of the record's key: a record with an unreadable one is refused.
    if (!isDigestHex(v.filesDigest)) return null;
    listing.filesDigest = v.filesDigest;
  }
  if (v.files !== undefined) {
    // Unreadable kept files are dropped, not the record: an export then says they are missing.
    const files = toArchiveFiles(v.files);
    if (files) listing.files = files;
  }
  return listing;
}

function toArchiveFiles(v: unknown): NonNullable<NonNullable<StoredSkill['archive']>['files']> | null {
  if (!Array.isArray(v)) return null;
  const out: { path: string; bytes: Uint8Array }[] = [];
  for (const f of v) {
    if (!isObject(f) || typeof f.path !== 'string') return null;
    const bytes = asBytes(f.bytes);
    if (!bytes) return null;
    out.push({ path: f.path, bytes });
  }
  return out;
}

/** A probe cache entry; extra fields of the stored record (evictKey) are dropped. */
export function toCacheEntry(v: unknown): ProbeCacheEntry | null {
  if (!isObject(v)) return null;
  const { url, origin, kind, positive, status, finalUrl, contentType, etag, lastModified, storedAt, expiresAt, failures, retryAt, reason, digestFailure } = v;
  if (!isNonEmptyString(url) || !isNonEmptyString(origin)) return null;
  if (typeof kind !== 'string' || !Object.hasOwn(DOCUMENTS, kind)) return null;
  if (typeof positive !== 'boolean') return null;
  if (!(status === null || (Number.isInteger(status) && typeof status === 'number'))) return null;
  if (!isStringOrNull(finalUrl) || !isStringOrNull(contentType) || !isStringOrNull(etag) || !isStringOrNull(lastModified)) return null;
  if (!isFiniteNumber(storedAt) || !isFiniteNumber(expiresAt)) return null;
  if (failures !== undefined && !(Number.isInteger(failures) && typeof failures === 'number' && failures >= 0)) return null;
  if (retryAt !== undefined && !isFiniteNumber(retryAt)) return null;
  if (reason !== undefined && typeof reason !== 'string') return null;
  const failedDigest = digestFailure === undefined ? undefined : toDigestFailure(digestFailure);
  if (failedDigest === null) return null;
  const bytes = v.bytes === null ? null : asBytes(v.bytes);
  if (v.bytes !== null && !bytes) return null;
  const entry: ProbeCacheEntry = {
    url,
    origin,
    kind: kind as DocumentKind,
    positive,
    status,
    finalUrl,
    contentType,
    etag,
    lastModified,
    bytes,
    storedAt,
    expiresAt,
  };
  if (failures !== undefined) entry.failures = failures;
  if (retryAt !== undefined) entry.retryAt = retryAt;
  if (reason !== undefined) entry.reason = reason;
  if (failedDigest !== undefined) entry.digestFailure = failedDigest;
  return entry;
}

function toDigestFailure(v: unknown): DigestFailure | null {
  if (!isObject(v) || typeof v.declared !== 'string' || !v.declared.split(',').every((h) => isDigestHex(h)) || !isDigestHex(v.rawHex) || !isDigestHex(v.lfHex)) return null;
  return { declared: v.declared, rawHex: v.rawHex, lfHex: v.lfHex };
}

export function toCacheRecord(entry: ProbeCacheEntry, evictKey: [number, number]): CacheRecord {
  return { ...entry, bytes: entry.bytes ? compactBytes(entry.bytes) : null, evictKey };
}

/** Top-level shape of a report: enough for the popup to draw it without crashing. */
export function toOriginReport(v: unknown): OriginReport | null {
  if (!isObject(v)) return null;
  if (v.reportVersion !== 1 || !isNonEmptyString(v.origin)) return null;
  if (typeof v.state !== 'string' || !(PROBE_STATES as readonly string[]).includes(v.state)) return null;
  if (!isStringOrNull(v.skippedBecause)) return null;
  if (!(v.startedAt === null || isFiniteNumber(v.startedAt)) || !(v.finishedAt === null || isFiniteNumber(v.finishedAt))) return null;
  if (typeof v.publishes !== 'boolean') return null;
  if (!Array.isArray(v.sources) || !Array.isArray(v.skills) || !Array.isArray(v.diagnostics)) return null;
  if (!isObject(v.key) || typeof v.key.state !== 'string') return null;
  if (!isObject(v.summary) || !isFiniteNumber(v.summary.total)) return null;
  if (!v.skills.every((s) => isObject(s) && typeof s.id === 'string' && isSkillStatus(s.status))) return null;
  return v as unknown as OriginReport;
}

export function toReportRecord(v: unknown): ReportRecord | null {
  if (!isObject(v) || !isNonEmptyString(v.origin) || !isFiniteNumber(v.order)) return null;
  const report = toOriginReport(v.report);
  if (!report || report.origin !== v.origin) return null;
  return { origin: v.origin, order: v.order, report };
}

export function reportOrder(report: OriginReport): number {
  return report.finishedAt ?? report.startedAt ?? 0;
}
