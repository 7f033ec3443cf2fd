// The trust store contract. lib/store/idb-store.ts implements it (the only module that writes trust
// state, every write one transaction), over IndexedDB, or over a database in memory for the private
// windows (private-store.ts): one code, the same rules, two backends.
import type { Approval, OriginReport, Pin, Settings } from '../types';
import type { KeyHistoryEntry, ProbeCacheEntry, StoredSkill } from './records';

export type PinResult =
  /** No pin existed; this key is now pinned (first sight). */
  | { result: 'pinned'; pin: Pin }
  /** The pin equals the key; lastSeen was refreshed. */
  | { result: 'match'; pin: Pin }
  /** A different key is pinned; the offered key is recorded in the key history, the pin is unchanged. */
  | { result: 'mismatch'; pin: Pin }
  /** The user revoked this key for the origin: nothing was pinned or refreshed (`pin`: whatever is pinned). */
  | { result: 'revoked'; pin: Pin | null };

/**
 * A skill whose verified bytes are known when the user trusts a new key: an approval of `url`
 * that binds exactly `digestLf` carries over to the new key (PRODUCT.md §5).
 */
export interface CarryOver {
  url: string;
  digestLf: string;
  /** For an archive: the file set it has now ('' for a SKILL.md); an approval of other files is not carried. */
  filesDigest?: string;
}

/** What revokeKey did: marked the key revoked, or found it revoked already. */
export type RevokeResult = 'revoked' | 'unchanged';

/** What one probe needs from the store about an origin, read in one transaction. */
export interface OriginState {
  pin: Pin | null;
  /** Every approval of the origin. */
  approvals: Approval[];
  /** Every stored skill record of the origin (all URLs, all digests kept). */
  skills: StoredSkill[];
  /** Every probe cache entry whose URL starts with `origin + '/'` (whichever probe wrote it). */
  cache: ProbeCacheEntry[];
  /** The origin's key history (revocations included). */
  keys: KeyHistoryEntry[];
}

/** What one probe learned, written together by commitProbe. */
export interface ProbeCommit {
  origin: string;
  /**
   * pinIfAbsent of the offered key, run first in the transaction; `expect` is the result the probe
   * predicted from what it read when it started (and built its report on).
   */
  pin?: { key: string; fingerprint: string; now: number; expect: PinResult['result'] };
  skills: StoredSkill[];
  cache: ProbeCacheEntry[];
  /** Written only when the pin's result is the one expected (or there is no pin step). */
  report: OriginReport | null;
}

export interface CommitResult {
  /** The pin step's result, null without one. */
  pin: PinResult | null;
  /** False when the pin's result was not the one expected: the report was built on a pin that is not so. */
  reportWritten: boolean;
}

/** What importApproval did: stored it, found the same one, kept a different one, or refused it (pin differs). */
export type ApprovalImport = 'added' | 'unchanged' | 'different' | 'pin-mismatch';

export interface TrustStore {
  // --- pins (compare-and-set, never overwritten silently) ---
  getPin(origin: string): Promise<Pin | null>;
  /**
   * Pin `key` when the origin has no pin; otherwise compare. A key the user revoked for the
   * origin is never pinned (`revoked`). The key history follows (first/last seen). One transaction.
   */
  pinIfAbsent(origin: string, key: string, fingerprint: string, now: number): Promise<PinResult>;
  /**
   * The user's decision to trust a new key. Replaces the pin only when the stored
   * fingerprint still equals `expectedFingerprint` (null: expects no pin). Returns false
   * and writes nothing otherwise; a revoked `fingerprint` is refused with StoreError `key-revoked`.
   * In the same transaction: an approval bound to the old key (or to no key) whose (url, digestLf)
   * is in `carry` is re-bound to the new key, every other approval of the origin is deleted
   * (it needs a new decision); the old key's history entry becomes `replaced`.
   */
  replacePin(origin: string, expectedFingerprint: string | null, key: string, fingerprint: string, now: number, carry?: readonly CarryOver[]): Promise<boolean>;
  /** Deletes the pin and the origin's key history, except revoked keys: they outlive "forget". */
  forgetPin(origin: string): Promise<void>;
  listPins(): Promise<Pin[]>;
  /**
   * `limit` pins from `offset` in origin order (code-unit order, lib/types/pins-page.ts), and the
   * number stored: one page read through the store's key, not every pin (the options page's list).
   */
  pinsPage(offset: number, limit: number): Promise<{ items: Pin[]; total: number }>;

  // --- key history (PRODUCT.md §5) ---
  /** Every key the origin has shown, oldest first. */
  getKeyHistory(origin: string): Promise<KeyHistoryEntry[]>;
  /** Every key history entry of every origin. */
  listKeyHistory(): Promise<KeyHistoryEntry[]>;
  /**
   * Marks `fingerprint` revoked for `origin` at `at`: it is never pinned or verified against again
   * for that origin. The pin itself is not removed (a new key offered later is then `changed`, not
   * silently pinned). A fingerprint the origin never showed gets an entry without key. One transaction.
   */
  revokeKey(origin: string, fingerprint: string, at: number): Promise<RevokeResult>;

  // --- approvals, bound to (origin, url, digest, key fingerprint) ---
  getApprovals(origin: string): Promise<Approval[]>;
  getApproval(origin: string, url: string): Promise<Approval | null>;
  /**
   * Stores the approval and the verified bytes it binds, in one transaction. `policyKey`: the
   * fingerprint the administrator pinned for the origin (docs/policies.md). An approval that names
   * a key is then checked against it instead of the stored pin.
   */
  approve(approval: Approval, skill: StoredSkill, policyKey?: string | null): Promise<void>;
  /**
   * Restores an approval from an export, without bytes (they are fetched and checked against
   * digestLf on the next probe). Never replaces a different stored approval; refuses an approval
   * whose keyFingerprint is not the origin's current pin. One transaction. The private windows'
   * store refuses it (StoreError `invalid-input`), as it refuses settings.
   */
  importApproval(approval: Approval): Promise<ApprovalImport>;
  revoke(origin: string, url: string): Promise<void>;
  listApprovals(): Promise<Approval[]>;

  // --- verified bytes ---
  putSkill(skill: StoredSkill): Promise<void>;
  /**
   * The stored bytes for (origin, url) with this LF digest and, for an archive, this file-set
   * digest (`filesDigest`; '' or absent: a SKILL.md skill, or an archive record of an older version), or null.
   */
  getSkill(origin: string, url: string, digestLf: string, filesDigest?: string): Promise<StoredSkill | null>;
  /** The most recently stored bytes for (origin, url), whatever the digest. */
  getLatestSkill(origin: string, url: string): Promise<StoredSkill | null>;
  /**
   * Stores every record (in order: a later record with the same key wins) in one transaction,
   * then bounds them as putSkill does, once for the batch: for each URL the latest bytes, the
   * bytes last written for it and approved bytes are kept; no record of the batch is evicted
   * by the per-origin bound. Every record is written or none is; a record without the shape
   * of a StoredSkill refuses the batch.
   */
  putSkills(skills: StoredSkill[]): Promise<void>;

  // --- probe cache (bounded; negative entries evicted oldest first) ---
  getCache(url: string): Promise<ProbeCacheEntry | null>;
  putCache(entry: ProbeCacheEntry): Promise<void>;
  /**
   * Stores every entry (in order: a later entry for the same URL wins) in one transaction, then
   * keeps the cache bound once, never evicting an entry of the batch. Every entry is written
   * or none is.
   */
  putCacheEntries(entries: ProbeCacheEntry[]): Promise<void>;
  deleteCacheForOrigin(origin: string): Promise<void>;

  // --- reports (last report per origin, for the popup after a worker restart) ---
  getReport(origin: string): Promise<OriginReport | null>;
  putReport(report: OriginReport): Promise<void>;
  /** Every stored report (for the options page's diagnostics list and revalidation). */
  listReports(): Promise<OriginReport[]>;

  // --- one probe's reads ---
  /**
   * The origin's pin, approvals, stored skills and the probe cache entries under its URL, in one
   * readonly transaction. Unreadable records are skipped and reported, as by the single reads.
   */
  getOriginState(origin: string): Promise<OriginState>;

  // --- one probe's writes ---
  /**
   * Everything a probe learned in one readwrite transaction: the pin step (pinIfAbsent), then the
   * verified bytes (as putSkills), the cache entries (as putCacheEntries) and the report (as
   * putReport). Every record is checked first; a malformed one writes nothing. When the pin's result
   * differs from the expected one, the bytes and cache entries are written and the report is not.
   * Any failure (quota, a refusal by the byte budget, an unreadable pin) writes nothing at all.
   */
  commitProbe(commit: ProbeCommit): Promise<CommitResult>;

  // --- settings ---
  getSettings(): Promise<Settings>;
  putSettings(settings: Settings): Promise<void>;

  close(): void;
}
