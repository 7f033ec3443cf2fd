// The memory of the private windows' trust store (private-store.ts): the origins whose trust
// records were copied from the normal store, the verified bytes, the probe cache and the reports,
// with their bounds. Nothing here is ever written anywhere else.
import type { OriginReport } from '../types';
import { StoreError } from './errors';
import { OriginTrust } from './private-trust';
import { storedKey, type ProbeCacheEntry, type StoredSkill } from './records';
import type { TrustStore } from './store-api';

export interface PrivateLimits {
  reports: number;
  cache: number;
  /** Bytes of the unapproved skills kept in memory, all origins together. */
  skillBytes: number;
}

export const PRIVATE_LIMITS: PrivateLimits = { reports: 200, cache: 2_000, skillBytes: 32 * 1024 * 1024 };

function sizeOf(s: StoredSkill): number {
  return s.bytes.byteLength + (s.archive?.files ?? []).reduce((n, f) => n + f.bytes.byteLength, 0);
}

export function underOrigin(url: string, origin: string): boolean {
  return url.startsWith(origin + '/');
}

export function latestOf(list: (StoredSkill | null)[]): StoredSkill | null {
  let best: StoredSkill | null = null;
  for (const s of list) if (s && (!best || s.storedAt > best.storedAt)) best = s;
  return best;
}

export class PrivateMemory {
  readonly trust = new Map<string, OriginTrust>();
  private readonly copying = new Map<string, Promise<OriginTrust>>();
  readonly skills = new Map<string, StoredSkill>();
  readonly cache = new Map<string, ProbeCacheEntry>();
  readonly reports = new Map<string, OriginReport>();

  constructor(
    readonly base: () => Promise<TrustStore>,
    private readonly limits: PrivateLimits,
  ) {}

  /** The origin's trust records in memory, copied from the normal store the first time. */
  own(origin: string): Promise<OriginTrust> {
    const known = this.trust.get(origin);
    if (known) return Promise.resolve(known);
    let pending = this.copying.get(origin);
    if (!pending) {
      pending = (async () => {
        const b = await this.base();
        const [pin, keys, approvals] = await Promise.all([b.getPin(origin), b.getKeyHistory(origin), b.getApprovals(origin)]);
        const t = this.trust.get(origin) ?? new OriginTrust(origin, pin, keys, approvals);
        this.trust.set(origin, t);
        return t;
      })();
      this.copying.set(origin, pending);
      const done = (): void => void this.copying.delete(origin);
      pending.then(done, done);
    }
    return pending;
  }

  private approvedKeys(): Set<string> {
    const out = new Set<string>();
    for (const t of this.trust.values()) for (const a of t.approvals.values()) out.add(`${a.origin}\n${a.url}\n${a.digestLf}\n${a.archive?.filesDigest ?? ''}`);
    return out;
  }

  /** The records to drop so that `incoming` fits (oldest unapproved first); throws over-budget, changing nothing, when they cannot fit. */
  makeRoom(incoming: readonly StoredSkill[]): string[] {
    const approved = this.approvedKeys();
    const kept = new Set(incoming.map(storedKey));
    const candidates = [...this.skills.entries()].filter(([k]) => !approved.has(k) && !kept.has(k)).sort((a, b) => a[1].storedAt - b[1].storedAt);
    let used = candidates.reduce((n, [, s]) => n + sizeOf(s), 0);
    const need = incoming.filter((s) => !approved.has(storedKey(s))).reduce((n, s) => n + sizeOf(s), 0);
    const drop: string[] = [];
    for (const [k, s] of candidates) {
      if (used + need <= this.limits.skillBytes) break;
      used -= sizeOf(s);
      drop.push(k);
    }
    if (used + need > this.limits.skillBytes) {
      throw new StoreError('over-budget', 'the skill bytes of private windows would be over their budget in memory; the new bytes were not stored and nothing stored before was removed');
    }
    return drop;
  }

  /** Writes `batch` after makeRoom answered `drop`. */
  putSkills(batch: readonly StoredSkill[], drop: readonly string[] = this.makeRoom(batch)): void {
    for (const k of drop) this.skills.delete(k);
    for (const s of batch) this.skills.set(storedKey(s), s);
  }

  putCache(entries: readonly ProbeCacheEntry[]): void {
    for (const e of entries) {
      this.cache.delete(e.url);
      this.cache.set(e.url, e);
    }
    // The oldest written go first (a Map keeps insertion order).
    for (const url of this.cache.keys()) {
      if (this.cache.size <= this.limits.cache) break;
      this.cache.delete(url);
    }
  }

  putReport(r: OriginReport): void {
    this.reports.delete(r.origin);
    this.reports.set(r.origin, r);
    const approved = this.approvedKeys();
    for (const origin of this.reports.keys()) {
      if (this.reports.size <= this.limits.reports) break;
      this.reports.delete(origin);
      // An evicted report takes its origin's unapproved bytes with it.
      for (const [k, s] of this.skills) if (s.origin === origin && !approved.has(k)) this.skills.delete(k);
    }
  }

  clear(): void {
    this.trust.clear();
    this.skills.clear();
    this.cache.clear();
    this.reports.clear();
  }
}
