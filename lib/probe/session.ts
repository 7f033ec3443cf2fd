// One probe's view of the trust store. The origin's pin, key history, approvals, stored skills and
// probe cache entries are read once, in one transaction, when the probe starts; what the probe
// learns — cache entries, verified bytes, and the pin step (first sight, lastSeen, an offered key) —
// is kept here and written at its end with its report, in one readwrite transaction (`commit`,
// TrustStore.commitProbe). The pin step is decided here from what was read (the key decision and
// the report are built on it) and run again as the store's compare-and-set inside the commit: a
// pin that changed meanwhile is told to the caller, which probes again. readPin reads the pin as
// it is stored now.
import type { Approval, OriginReport, Pin } from '../types';
import { filesKeyOf, type KeyHistoryEntry, type ProbeCacheEntry, type StoredSkill } from '../store/records';
import type { OriginState, PinResult, ProbeCommit, TrustStore } from '../store/store-api';
import { pinStep } from '../store/trust-rules';

/** The store calls the engine makes during one probe. */
export interface ProbeStore {
  getCache(url: string): Promise<ProbeCacheEntry | null>;
  /** Buffered until flush; later reads in the same probe see it. */
  putCache(entry: ProbeCacheEntry): Promise<void>;
  /** The origin's pin as read when the probe started. */
  getPin(origin: string): Promise<Pin | null>;
  /** The pin as stored right now. */
  readPin(origin: string): Promise<Pin | null>;
  pinIfAbsent(origin: string, key: string, fingerprint: string, now: number): Promise<PinResult>;
  /** The fingerprints revoked for the origin, as stored right now. */
  revokedKeys(origin: string): Promise<string[]>;
  getApproval(origin: string, url: string): Promise<Approval | null>;
  /** `filesDigest`: an archive's file-set digest ('' or absent: a SKILL.md skill). */
  getSkill(origin: string, url: string, digestLf: string, filesDigest?: string): Promise<StoredSkill | null>;
  getLatestSkill(origin: string, url: string): Promise<StoredSkill | null>;
  /** Buffered until flush (a later record for the same url and digest replaces it); later reads see it. */
  putSkill(skill: StoredSkill): Promise<void>;
}

/** The pin step of a commit (TrustStore.commitProbe). */
export type PinStep = NonNullable<ProbeCommit['pin']>;

/** What a probe has learned and not written yet. */
export interface PendingWrites {
  skills: StoredSkill[];
  cache: ProbeCacheEntry[];
  pin: PinStep | null;
}

/** What a commit did. */
export type CommitOutcome =
  /** Written. `pinAsExpected`: false when the pin step found another pin than the one read (the report was not written). */
  | { ok: true; pinAsExpected: boolean }
  /** Nothing was written (one transaction); `ops` names the kinds of writes that were lost, the buffers are kept. */
  | { ok: false; error: unknown; firstPin: boolean; ops: string[] };

export interface ProbeSession extends ProbeStore {
  /** What is buffered (for a probe that starts again from it). */
  pending(): PendingWrites;
  /**
   * Writes what is buffered and `report` together (commitProbe: one transaction), then empties the
   * buffers. `skills: false` leaves the verified bytes out (a refusal by the byte budget), `cache:
   * false` the cache entries (after a failed commit). Never throws: a failure is answered.
   */
  commit(report: OriginReport | null, opts?: { skills?: boolean; cache?: boolean }): Promise<CommitOutcome>;
}

export interface SessionOptions {
  /** Writes a probe that starts again keeps (read as if buffered by this session). */
  seed?: PendingWrites;
  /** The pin cannot be written now (a commit failed): pinIfAbsent rejects with this error. */
  pinUnwritable?: unknown;
}

/** The operations a failed commit lost, in the words of the storage diagnostics (storage-guard.ts). */
export const COMMIT_OPS = {
  cache: 'Saving the probe cache',
  skills: 'Saving verified skill bytes',
  pin: 'Saving the pinned key',
  report: 'Saving the report',
} as const;

function skillKey(url: string, digestLf: string, filesKey: string): string {
  return `${url}\n${digestLf}\n${filesKey}`;
}

function keyOf(s: StoredSkill): string {
  return skillKey(s.url, s.digestLf, filesKeyOf(s));
}

/** Newer storedAt first; equal times: the larger key (the order of the store's index read backwards). */
function newer(a: StoredSkill, b: StoredSkill): boolean {
  if (a.storedAt !== b.storedAt) return a.storedAt > b.storedAt;
  return a.digestLf !== b.digestLf ? a.digestLf > b.digestLf : filesKeyOf(a) > filesKeyOf(b);
}

class Snapshot {
  readonly pin: Pin | null;
  /** The key history by fingerprint. */
  readonly keys: Map<string, KeyHistoryEntry>;
  private readonly approvals = new Map<string, Approval>();
  private readonly skills = new Map<string, StoredSkill>();
  private readonly latest = new Map<string, StoredSkill>();
  private readonly cache = new Map<string, ProbeCacheEntry>();

  constructor(
    readonly origin: string,
    state: OriginState,
  ) {
    this.pin = state.pin;
    this.keys = new Map(state.keys.map((k) => [k.fingerprint, k]));
    for (const a of state.approvals) this.approvals.set(a.url, a);
    for (const s of state.skills) this.addSkill(s);
    for (const e of state.cache) this.cache.set(e.url, e);
  }

  /** URLs whose cache entries the snapshot holds all of (the state holds every entry under origin + '/'). */
  coversUrl(url: string): boolean {
    return url.startsWith(this.origin + '/');
  }

  getCache(url: string): ProbeCacheEntry | null {
    return this.cache.get(url) ?? null;
  }

  setCache(entry: ProbeCacheEntry): void {
    if (this.coversUrl(entry.url)) this.cache.set(entry.url, entry);
  }

  getApproval(url: string): Approval | null {
    return this.approvals.get(url) ?? null;
  }

  getSkill(url: string, digestLf: string, filesKey: string): StoredSkill | null {
    return this.skills.get(skillKey(url, digestLf, filesKey)) ?? null;
  }

  getLatestSkill(url: string): StoredSkill | null {
    return this.latest.get(url) ?? null;
  }

  addSkill(s: StoredSkill): void {
    this.skills.set(keyOf(s), s);
    const current = this.latest.get(s.url);
    if (!current || newer(s, current)) {
      this.latest.set(s.url, s);
      return;
    }
    if (keyOf(current) !== keyOf(s)) return;
    // The latest record was rewritten (an older or equal storedAt): look again over the url's records.
    let best: StoredSkill = s;
    for (const other of this.skills.values()) if (other.url === s.url && newer(other, best)) best = other;
    this.latest.set(s.url, best);
  }
}

/**
 * pinIfAbsent as the store would answer it over `snap` (trust-rules.ts), and the step the commit runs
 * again; null: nothing to write (a revoked key is never pinned or refreshed).
 */
function predictPin(snap: Snapshot, key: string, fingerprint: string, now: number): { result: PinResult; step: PinStep | null } {
  const { result } = pinStep(snap.origin, key, fingerprint, now, snap.pin, snap.keys.get(fingerprint) ?? null);
  return { result, step: result.result === 'revoked' ? null : { key, fingerprint, now, expect: result.result } };
}

/**
 * Opens the probe's view of `store` for `origin` (an http(s) origin, no trailing slash).
 * Reading the origin's state may fail (the store is unreadable): the caller decides.
 */
export async function openSession(store: TrustStore, origin: string, opts: SessionOptions = {}): Promise<ProbeSession> {
  const snapshot = new Snapshot(origin, await store.getOriginState(origin));
  // A probe asks about its own origin; another origin's records are read from the store.
  const forOrigin = (o: string): Snapshot | null => (o === origin ? snapshot : null);
  let skills = new Map<string, StoredSkill>();
  let cache = new Map<string, ProbeCacheEntry>();
  let pinStep: PinStep | null = null;

  const session: ProbeSession = {
    async getCache(url) {
      const buffered = cache.get(url);
      if (buffered) return buffered;
      return snapshot.coversUrl(url) ? snapshot.getCache(url) : store.getCache(url);
    },
    async putCache(entry) {
      cache.delete(entry.url);
      cache.set(entry.url, entry);
      snapshot.setCache(entry);
    },
    async getPin(o) {
      const snap = forOrigin(o);
      return snap ? snap.pin : store.getPin(o);
    },
    readPin: (o) => store.getPin(o),
    async pinIfAbsent(o, key, fp, now) {
      if (opts.pinUnwritable !== undefined) throw opts.pinUnwritable;
      const snap = forOrigin(o);
      // Decided from what was read, written with the report (commit).
      if (!snap) return store.pinIfAbsent(o, key, fp, now);
      const predicted = predictPin(snap, key, fp, now);
      pinStep = predicted.step;
      return predicted.result;
    },
    revokedKeys: async (o) => {
      const keys = forOrigin(o)?.keys.values() ?? (await store.getKeyHistory(o));
      return [...keys].filter((e) => e.state === 'revoked').map((e) => e.fingerprint);
    },
    async getApproval(o, url) {
      const snap = forOrigin(o);
      return snap ? snap.getApproval(url) : store.getApproval(o, url);
    },
    async getSkill(o, url, digestLf, filesDigest = '') {
      const buffered = skills.get(`${o}\n${skillKey(url, digestLf, filesDigest)}`);
      if (buffered) return buffered;
      const snap = forOrigin(o);
      return snap ? snap.getSkill(url, digestLf, filesDigest) : store.getSkill(o, url, digestLf, filesDigest);
    },
    async getLatestSkill(o, url) {
      const snap = forOrigin(o);
      return snap ? snap.getLatestSkill(url) : store.getLatestSkill(o, url);
    },
    async putSkill(skill) {
      const key = `${skill.origin}\n${keyOf(skill)}`;
      skills.delete(key);
      skills.set(key, skill);
      forOrigin(skill.origin)?.addSkill(skill);
    },
    pending: () => ({ skills: [...skills.values()], cache: [...cache.values()], pin: pinStep }),
    async commit(report, commitOpts = {}) {
      const pending = session.pending();
      const written: PendingWrites = { ...pending, skills: commitOpts.skills === false ? [] : pending.skills, cache: commitOpts.cache === false ? [] : pending.cache };
      try {
        const pinAsExpected = await write(store, origin, written, report);
        skills = new Map();
        cache = new Map();
        pinStep = null;
        return { ok: true, pinAsExpected };
      } catch (error) {
        return { ok: false, error, firstPin: written.pin?.expect === 'pinned', ops: lostOps(written, report) };
      }
    },
  };
  for (const e of opts.seed?.cache ?? []) await session.putCache(e);
  for (const s of opts.seed?.skills ?? []) await session.putSkill(s);
  return session;
}

function lostOps(w: PendingWrites, report: OriginReport | null): string[] {
  const ops: string[] = [];
  if (w.cache.length > 0) ops.push(COMMIT_OPS.cache);
  if (w.skills.length > 0) ops.push(COMMIT_OPS.skills);
  if (w.pin && w.pin.expect !== 'pinned') ops.push(COMMIT_OPS.pin);
  if (report) ops.push(COMMIT_OPS.report);
  return ops;
}

/** One transaction (commitProbe). Returns whether the pin step went as expected. */
async function write(store: TrustStore, origin: string, w: PendingWrites, report: OriginReport | null): Promise<boolean> {
  // Nothing learned and no report: no transaction at all.
  if (w.skills.length === 0 && w.cache.length === 0 && w.pin === null && report === null) return true;
  const done = await store.commitProbe({ origin, ...(w.pin ? { pin: w.pin } : {}), skills: w.skills, cache: w.cache, report });
  return w.pin === null || done.pin?.result === w.pin.expect;
}
