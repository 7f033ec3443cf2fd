// The trust records of one origin as the private windows see them (private-store.ts): a copy of the
// normal store's pin, key history and approvals, taken the first time a private window changes
// anything about the origin, and changed in memory only from then on. The rules are the store's
// (PRODUCT.md §5, §6): a revoked key is never pinned or trusted, an approval names the key pinned
// now, trusting a new key carries over the approvals of unchanged bytes and suspends the rest.
import type { Approval, Pin } from '../types';
import { StoreError } from './errors';
import { MAX_OFFERED_KEYS_PER_ORIGIN, revokedEntry } from './idb-keys';
import { pinStep } from './pin-step';
import type { KeyHistoryEntry } from './records';
import type { CarryOver, PinResult, RevokeResult } from './store-api';

export class OriginTrust {
  readonly keys = new Map<string, KeyHistoryEntry>();
  readonly approvals = new Map<string, Approval>();

  constructor(
    readonly origin: string,
    public pin: Pin | null,
    keys: readonly KeyHistoryEntry[],
    approvals: readonly Approval[],
  ) {
    for (const k of keys) this.keys.set(k.fingerprint, { ...k });
    for (const a of approvals) this.approvals.set(a.url, { ...a });
  }

  history(): KeyHistoryEntry[] {
    return [...this.keys.values()].sort((a, b) => a.firstSeen - b.firstSeen || (a.fingerprint < b.fingerprint ? -1 : 1));
  }

  pinIfAbsent(key: string, fingerprint: string, now: number): PinResult {
    const step = pinStep(this.origin, key, fingerprint, now, this.pin, this.keys.get(fingerprint) ?? null);
    if (step.pin) this.pin = step.pin;
    for (const e of step.keys) this.keys.set(e.fingerprint, e);
    if (step.offered) this.boundOffered(fingerprint);
    return step.result;
  }

  private boundOffered(keep: string): void {
    const offered = [...this.keys.values()].filter((e) => e.state === 'offered' && e.fingerprint !== keep).sort((a, b) => a.lastSeen - b.lastSeen);
    const excess = offered.length + 1 - MAX_OFFERED_KEYS_PER_ORIGIN;
    for (const e of offered.slice(0, Math.max(0, excess))) this.keys.delete(e.fingerprint);
  }

  replacePin(expected: string | null, key: string, fingerprint: string, now: number, carry: readonly CarryOver[]): boolean {
    const seen = this.keys.get(fingerprint) ?? null;
    if (seen?.state === 'revoked') throw new StoreError('key-revoked', `${fingerprint} was revoked for ${this.origin}; it is never trusted again. Nothing was written.`);
    const current = this.pin;
    if ((current?.fingerprint ?? null) !== expected) return false;
    if (current && current.fingerprint === fingerprint && current.key === key) return true;
    this.pin = { origin: this.origin, key, fingerprint, firstSeen: now, lastSeen: now };
    this.keys.set(fingerprint, { origin: this.origin, fingerprint, key, firstSeen: seen?.firstSeen ?? now, lastSeen: now, state: 'pinned', revokedAt: null });
    if (current) {
      const old = this.keys.get(current.fingerprint);
      if (old?.state !== 'revoked') {
        const firstSeen = old ? Math.min(old.firstSeen, current.firstSeen) : current.firstSeen;
        const lastSeen = old ? Math.max(old.lastSeen, current.lastSeen) : current.lastSeen;
        this.keys.set(current.fingerprint, { origin: this.origin, fingerprint: current.fingerprint, key: current.key, firstSeen, lastSeen, state: 'replaced', revokedAt: null });
      }
    }
    const unchanged = new Map(carry.map((c) => [c.url, c]));
    for (const a of [...this.approvals.values()]) {
      const c = unchanged.get(a.url);
      const sameBytes = c !== undefined && c.digestLf.toLowerCase() === a.digestLf.toLowerCase() && (c.filesDigest === undefined || c.filesDigest.toLowerCase() === (a.archive?.filesDigest ?? ''));
      const boundToOld = a.keyFingerprint === null || a.keyFingerprint === current?.fingerprint;
      if (sameBytes && boundToOld) this.approvals.set(a.url, { ...a, keyFingerprint: a.keyFingerprint === null ? null : fingerprint });
      else this.approvals.delete(a.url);
    }
    return true;
  }

  forget(): void {
    this.pin = null;
    for (const e of [...this.keys.values()]) if (e.state !== 'revoked') this.keys.delete(e.fingerprint);
  }

  revokeKey(fingerprint: string, at: number): RevokeResult {
    const entry = this.keys.get(fingerprint);
    if (entry?.state === 'revoked') return 'unchanged';
    this.keys.set(fingerprint, revokedEntry(this.origin, fingerprint, entry ?? null, at));
    return 'revoked';
  }

  /** Throws unless `a` names no key, the administrator's key (`policyKey`) or the key pinned now. */
  checkBinding(a: Approval, policyKey: string | null): void {
    if (a.keyFingerprint === null) return;
    const bound = policyKey ?? this.pin?.fingerprint ?? null;
    if (bound !== a.keyFingerprint) throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but ${a.origin} has ${bound ? `key ${bound}` : 'no pin'}; nothing was written`);
  }
}
