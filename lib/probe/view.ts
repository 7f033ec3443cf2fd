// What one probe reads and what it learns. The probe reads its origin's records from one snapshot
// (TrustStore.getOriginState, one transaction when the probe starts) and never writes the store:
// what it learns — cache entries, verified bytes and the pin step (a first sight, a lastSeen, an
// offered key) — is kept as writes, which later reads of the same probe see. The caller commits
// them with the report in one transaction (lib/probe/commit.ts). The pin step is decided here from
// the snapshot (the key decision and the report are built on it) and run again as the store's
// compare-and-set inside the commit.
//
// Two reads reach past the snapshot, through `outside`: a cache entry for a URL on another origin
// (an artifact served elsewhere), and the pin as stored right now (after a first pin could not be
// written).
import type { Approval, Pin } from '../types';
import { filesKeyOf, type KeyHistoryEntry, type ProbeCacheEntry, type StoredSkill } from '../store/records';
import type { OriginState, PinResult, ProbeCommit, TrustStore } from '../store/store-api';
import { pinStep } from '../store/trust-rules';

/** The pin step of a commit (TrustStore.commitProbe). */
export type PinStep = NonNullable<ProbeCommit['pin']>;

/** What a probe has learned and not written yet. */
export interface ProbeWrites {
  skills: StoredSkill[];
  cache: ProbeCacheEntry[];
  pin: PinStep | null;
}

/** The store reads a probe makes past its snapshot. */
export type Outside = Pick<TrustStore, 'getCache' | 'getPin' | 'getKeyHistory'>;

/** One probe's records: the snapshot and the writes over it. Every read and write is about the probe's origin. */
export type ProbeView = ReturnType<typeof probeView>;

export interface ViewOptions {
  /** Writes a probe that starts again keeps (read as if written by this one). */
  seed?: ProbeWrites;
  /** The pin cannot be written now (a commit failed): pinIfAbsent throws this error. */
  pinUnwritable?: unknown;
}

const skillKey = (url: string, digestLf: string, filesKey: string): string => `${url}\n${digestLf}\n${filesKey}`;
const keyOf = (s: StoredSkill): string => skillKey(s.url, s.digestLf, filesKeyOf(s));

/** Newer storedAt first; equal times: the larger key (the order of the store's index read backwards). */
function newer(a: StoredSkill, b: StoredSkill): boolean {
  if (a.storedAt !== b.storedAt) return a.storedAt > b.storedAt;
  return a.digestLf !== b.digestLf ? a.digestLf > b.digestLf : filesKeyOf(a) > filesKeyOf(b);
}

/** The view of `state`, the records of `origin` (an http(s) origin, no trailing slash). */
export function probeView(origin: string, state: OriginState, outside: Outside, opts: ViewOptions = {}) {
  const keys = new Map<string, KeyHistoryEntry>(state.keys.map((k) => [k.fingerprint, k]));
  const approvals = new Map(state.approvals.map((a) => [a.url, a]));
  const cache = new Map(state.cache.map((e) => [e.url, e]));
  const skills = new Map<string, StoredSkill>();
  const latest = new Map<string, StoredSkill>();
  const written = { skills: new Map<string, StoredSkill>(), cache: new Map<string, ProbeCacheEntry>(), pin: null as PinStep | null };
  const covers = (url: string): boolean => url.startsWith(origin + '/');

  const addSkill = (s: StoredSkill): void => {
    skills.set(keyOf(s), s);
    const current = latest.get(s.url);
    if (!current || newer(s, current)) {
      latest.set(s.url, s);
      return;
    }
    if (keyOf(current) !== keyOf(s)) return;
    // The latest record was rewritten (an older or equal storedAt): look again over the url's records.
    let best: StoredSkill = s;
    for (const other of skills.values()) if (other.url === s.url && newer(other, best)) best = other;
    latest.set(s.url, best);
  };
  for (const s of state.skills) addSkill(s);

  const view = {
    origin,
    /** A URL outside the origin is read from the store. */
    async getCache(url: string): Promise<ProbeCacheEntry | null> {
      return written.cache.get(url) ?? (covers(url) ? (cache.get(url) ?? null) : outside.getCache(url));
    },
    putCache(entry: ProbeCacheEntry): void {
      written.cache.delete(entry.url);
      written.cache.set(entry.url, entry);
    },
    /** The pin as read when the probe started. */
    pin: (): Pin | null => state.pin,
    /** As TrustStore.pinIfAbsent would answer over the snapshot; kept as the commit's pin step (none for a revoked key). */
    pinIfAbsent(key: string, fingerprint: string, now: number): PinResult {
      if (opts.pinUnwritable !== undefined) throw opts.pinUnwritable;
      const { result } = pinStep(origin, key, fingerprint, now, state.pin, keys.get(fingerprint) ?? null);
      // A revoked key is never pinned or refreshed: nothing to write.
      written.pin = result.result === 'revoked' ? null : { key, fingerprint, now, expect: result.result };
      return result;
    },
    /** The pin and the revoked fingerprints as stored right now. */
    async storedPin(): Promise<{ pin: Pin | null; revoked: string[] }> {
      const [pin, history] = await Promise.all([outside.getPin(origin), outside.getKeyHistory(origin)]);
      return { pin, revoked: history.filter((e) => e.state === 'revoked').map((e) => e.fingerprint) };
    },
    getApproval: (url: string): Approval | null => approvals.get(url) ?? null,
    /** `filesDigest`: an archive's file-set digest ('' or absent: a SKILL.md skill). */
    getSkill: (url: string, digestLf: string, filesDigest = ''): StoredSkill | null => skills.get(skillKey(url, digestLf, filesDigest)) ?? null,
    getLatestSkill: (url: string): StoredSkill | null => latest.get(url) ?? null,
    /** A later record for the same url and digests replaces it. */
    putSkill(skill: StoredSkill): void {
      if (skill.origin !== origin) throw new Error(`a probe of ${origin} stores no skill of ${skill.origin}`);
      const key = keyOf(skill);
      written.skills.delete(key);
      written.skills.set(key, skill);
      addSkill(skill);
    },
    writes: (): ProbeWrites => ({ skills: [...written.skills.values()], cache: [...written.cache.values()], pin: written.pin }),
  };
  for (const e of opts.seed?.cache ?? []) view.putCache(e);
  for (const s of opts.seed?.skills ?? []) view.putSkill(s);
  return view;
}
