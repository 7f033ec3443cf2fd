// The trust records of one origin as the private windows see them (private-store.ts): a copy of the
// normal store's pin, key history and approvals, taken the first time a private window changes
// anything about the origin, and changed in memory only from then on, by the store's rules
// (trust-rules.ts).
import type { Approval, Pin } from '../types';
import type { KeyHistoryEntry } from './records';
import type { CarryOver, PinResult, RevokeResult } from './store-api';
import { byFirstSeen, excessOffered, forgotten, pinStep, replaceStep, revokedEntry } from './trust-rules';

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
    return [...this.keys.values()].sort(byFirstSeen);
  }

  pinIfAbsent(key: string, fingerprint: string, now: number): PinResult {
    const step = pinStep(this.origin, key, fingerprint, now, this.pin, this.keys.get(fingerprint) ?? null);
    if (step.pin) this.pin = step.pin;
    for (const e of step.keys) this.keys.set(e.fingerprint, e);
    if (step.offered) for (const e of excessOffered(this.keys.values(), fingerprint)) this.keys.delete(e.fingerprint);
    return step.result;
  }

  replacePin(expected: string | null, key: string, fingerprint: string, now: number, carry: readonly CarryOver[]): boolean {
    const seen = this.keys.get(fingerprint) ?? null;
    const old = this.pin ? (this.keys.get(this.pin.fingerprint) ?? null) : null;
    const step = replaceStep(this.origin, expected, key, fingerprint, now, carry, { pin: this.pin, seen, old, approvals: [...this.approvals.values()] });
    if (typeof step === 'boolean') return step;
    this.pin = step.pin;
    for (const e of step.keys) this.keys.set(e.fingerprint, e);
    this.approvals.clear();
    for (const a of step.approvals) this.approvals.set(a.url, a);
    return true;
  }

  forget(): void {
    this.pin = null;
    for (const e of forgotten(this.keys.values())) this.keys.delete(e.fingerprint);
  }

  revokeKey(fingerprint: string, at: number): RevokeResult {
    const entry = revokedEntry(this.origin, fingerprint, this.keys.get(fingerprint) ?? null, at);
    if (!entry) return 'unchanged';
    this.keys.set(fingerprint, entry);
    return 'revoked';
  }
}
