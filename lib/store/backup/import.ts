// Importing a trust backup (PRODUCT.md §5): nothing is written unless the whole file is valid; a
// different pin is never replaced (the conflict is reported), a revoked key is never pinned, approvals
// of an origin whose pin conflicts are not imported, and an approval of an unverified or cross-host
// skill only with the confirmation the options page asks for it (preview.ts shows all of it first).
import type { Approval, OriginReport, Pin, Settings, SkillStatus } from '../../types';
import { httpOrigin } from '../../origin';
import { isFiniteNumber } from '../validate';
import { StoreError } from '../errors';
import type { TrustStore } from '../store-api';
import { readBackup } from './read';

/** The answer to skillpin:import (lib/messages/ re-exports it). */
export interface ImportResult {
  ok: boolean;
  pinsAdded: number;
  pinsUnchanged: number;
  /** Pins that differ from the stored one: never replaced silently. */
  pinConflicts: { origin: string; stored: string; imported: string }[];
  approvalsAdded: number;
  /** Approvals already stored exactly as imported. */
  approvalsUnchanged?: number;
  /**
   * Approvals not imported, and why: the origin's pin conflicts, the approval names another key than
   * the pin, a different approval is stored, or the confirmation an unverified or cross-host skill
   * needs was not given.
   */
  approvalsSkipped?: { origin: string; url: string; reason: ImportSkipReason }[];
  /** Pins not imported because their key is revoked for the origin (in the store or in the file). */
  pinsRevoked?: { origin: string; fingerprint: string }[];
  revocationsAdded?: number;
  /** Whether the file's settings were written. */
  settingsApplied?: boolean;
  /** Settings in the file that the organisation's policy manages: not imported (the policy's value stays). */
  settingsManaged?: string[];
  /** The origins a pin or an approval was added for (they are probed next). */
  changedOrigins?: string[];
  errors: string[];
}

export type ImportSkipReason = 'pin-conflict' | 'pin-mismatch' | 'different-approval' | 'needs-confirmation' | 'policy-requires-signed';

/**
 * The popup's confirmations for an approval (components/shared/approve.ts): unverified bytes,
 * another host. Judged from what this browser has seen of the skill (`report`, the origin's last
 * report), never from what the file claims (PRODUCT.md §5): a skill this browser has not verified
 * with exactly the approved bytes counts as unverified, and its host is the one that served it.
 */
export function approvalNeeds(a: Approval, report: OriginReport | null): { unverified: boolean; crossOrigin: boolean } {
  const seen = report?.skills.find((s) => s.url === a.url) ?? null;
  const verified = seen !== null && seen.actual?.lf === a.digestLf && VERIFIED_STATUSES.has(seen.status);
  return { unverified: !verified, crossOrigin: seen?.crossOrigin === true || httpOrigin(a.url) !== a.origin };
}

/** The statuses under which a report has shown the bytes to match what their publisher declared. */
const VERIFIED_STATUSES: ReadonlySet<SkillStatus> = new Set(['verified', 'verified-signed']);

/**
 * Whether the organisation's policy lets this approval be imported (docs/policies.md): under
 * requireSignedSkills only one this browser has seen verified-signed with exactly these bytes.
 */
export function policyAllowsImport(a: Approval, report: OriginReport | null, requireSigned: boolean): boolean {
  if (!requireSigned) return true;
  const seen = report?.skills.find((s) => s.url === a.url) ?? null;
  return seen !== null && seen.status === 'verified-signed' && seen.actual?.lf === a.digestLf;
}

export function approvalId(a: { origin: string; url: string }): string {
  return `${a.origin} ${a.url}`;
}

/** What the organisation's policy adds to an import. */
export interface ImportPolicy {
  requireSigned?: boolean;
  pinnedKeys?: readonly { origin: string; fingerprint: string }[];
}

/** The confirmations given for an import: ids (`origin + ' ' + url`) of the approvals confirmed. */
export interface ImportConfirmations {
  confirmUnverified?: readonly string[];
  confirmCrossOrigin?: readonly string[];
}

function describe(e: unknown): string {
  if (e instanceof StoreError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Imports a backup. Nothing is written unless the whole document is valid. Revocations are
 * written first, so a pin in the same file for a revoked key is refused (pinsRevoked). A pin that
 * differs from the stored one is reported in pinConflicts and the stored pin stays; approvals of
 * that origin are skipped. An approval of an unverified or cross-host skill is imported only when
 * its id is in the matching confirmation list. Imported pins are first seen now (in this browser).
 */
export async function importBackup(
  store: TrustStore,
  json: string,
  now: number,
  confirmations: ImportConfirmations = {},
  /** Settings fields the organisation's policy manages: left out of the import and listed in settingsManaged. */
  managed: readonly string[] = [],
  /** The rest of the organisation's policy: signed-only approvals, the keys it pins. */
  policy: ImportPolicy = {},
): Promise<ImportResult> {
  const result: ImportResult = {
    ok: false,
    pinsAdded: 0,
    pinsUnchanged: 0,
    pinConflicts: [],
    approvalsAdded: 0,
    approvalsUnchanged: 0,
    approvalsSkipped: [],
    pinsRevoked: [],
    revocationsAdded: 0,
    settingsApplied: false,
    errors: [],
  };
  const errors = result.errors;
  const skipped = result.approvalsSkipped ?? [];
  const skip = (a: Approval, reason: ImportSkipReason): void => {
    skipped.push({ origin: a.origin, url: a.url, reason });
  };
  if (typeof json !== 'string') {
    errors.push('not JSON: expected text');
    return result;
  }
  if (!isFiniteNumber(now)) {
    errors.push('import time is not a number');
    return result;
  }
  const parsed = readBackup(json, errors);
  if (!parsed) return result;

  for (const r of parsed.revocations) {
    try {
      if ((await store.revokeKey(r.origin, r.fingerprint, r.revokedAt)) === 'revoked') result.revocationsAdded = (result.revocationsAdded ?? 0) + 1;
    } catch (e) {
      errors.push(`revocation of ${r.fingerprint} for ${r.origin} not imported: ${describe(e)}`);
    }
  }

  const conflicted = new Set<string>();
  const changed = new Set<string>();
  /** The file's pin differs from `stored`, the origin's key: it is not imported, nor are the origin's approvals. */
  const conflict = (pin: Pin, stored: string): void => {
    conflicted.add(pin.origin);
    result.pinConflicts.push({ origin: pin.origin, stored, imported: pin.fingerprint });
  };
  for (const pin of parsed.pins) {
    const managedKey = policy.pinnedKeys?.find((k) => k.origin === pin.origin);
    if (managedKey && managedKey.fingerprint !== pin.fingerprint) {
      // The administrator's key for the origin decides; the file's other key is never pinned.
      conflict(pin, managedKey.fingerprint);
      continue;
    }
    try {
      const stored = await store.getPin(pin.origin);
      if (stored) {
        if (stored.fingerprint === pin.fingerprint && stored.key === pin.key) result.pinsUnchanged++;
        else conflict(pin, stored.fingerprint);
        continue;
      }
      const outcome = await store.pinIfAbsent(pin.origin, pin.key, pin.fingerprint, now);
      if (outcome.result === 'pinned') {
        result.pinsAdded++;
        changed.add(pin.origin);
      } else if (outcome.result === 'match') result.pinsUnchanged++;
      else if (outcome.result === 'revoked') {
        conflicted.add(pin.origin);
        result.pinsRevoked?.push({ origin: pin.origin, fingerprint: pin.fingerprint });
      } else conflict(pin, outcome.pin.fingerprint);
    } catch (e) {
      conflicted.add(pin.origin);
      errors.push(`pin of ${pin.origin} not imported: ${describe(e)}`);
    }
  }

  const unverifiedOk = new Set(confirmations.confirmUnverified ?? []);
  const crossOk = new Set(confirmations.confirmCrossOrigin ?? []);
  for (const approval of parsed.approvals) {
    if (conflicted.has(approval.origin)) {
      skip(approval, 'pin-conflict');
      continue;
    }
    const report = await store.getReport(approval.origin).catch(() => null);
    if (!policyAllowsImport(approval, report, policy.requireSigned === true)) {
      skip(approval, 'policy-requires-signed');
      continue;
    }
    const needs = approvalNeeds(approval, report);
    const id = approvalId(approval);
    if ((needs.unverified && !unverifiedOk.has(id)) || (needs.crossOrigin && !crossOk.has(id))) {
      skip(approval, 'needs-confirmation');
      continue;
    }
    try {
      const outcome = await store.importApproval(approval);
      if (outcome === 'added') {
        result.approvalsAdded++;
        changed.add(approval.origin);
      } else if (outcome === 'unchanged') result.approvalsUnchanged = (result.approvalsUnchanged ?? 0) + 1;
      else skip(approval, outcome === 'different' ? 'different-approval' : 'pin-mismatch');
    } catch (e) {
      errors.push(`approval of ${approval.url} not imported: ${describe(e)}`);
    }
  }

  // Settings the organisation's policy manages are not imported (docs/policies.md): the file's
  // value would only be hidden behind the policy's, and would surface if the policy went away.
  const fileSettings: Partial<Settings> = { ...(parsed.settings ?? {}) };
  const locked = (Object.keys(fileSettings) as (keyof Settings)[]).filter((f) => managed.includes(f));
  for (const f of locked) delete fileSettings[f];
  if (locked.length > 0) result.settingsManaged = locked;
  if (parsed.settings && Object.keys(fileSettings).length > 0) {
    try {
      const current = await store.getSettings();
      await store.putSettings({ ...current, ...fileSettings });
      result.settingsApplied = true;
    } catch (e) {
      errors.push(`settings not imported: ${describe(e)}`);
    }
  }
  result.changedOrigins = [...changed].sort();
  result.ok = errors.length === 0;
  return result;
}
