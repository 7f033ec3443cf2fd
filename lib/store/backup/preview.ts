// What an import would do, before it does anything: the file is parsed and checked as importBackup
// checks it, then compared with the store as it is now. Only reads; the options page shows the
// result and asks before calling importBackup (PRODUCT.md §5: import never surprises).
import type { Approval, OriginReport, Pin, Settings, SkillStatus } from '../../types';
import { display, NAME_MAX } from '../../render/display';
import { approvalId, approvalNeeds, policyAllowsImport, type ImportPolicy } from './import';
import { readBackup } from './read';
import type { TrustStore } from '../store-api';
import { bindingError, sameApproval } from '../trust-rules';

/** One approval of an import file, as the preview shows it (lib/messages/ re-exports it). */
export interface ImportApprovalPreview {
  /** origin + ' ' + url: what the confirmation lists of skillpin:import name. */
  id: string;
  origin: string;
  url: string;
  name: string;
  statusAtApproval: SkillStatus;
  keyFingerprint: string | null;
  /** What importing does with it now. */
  outcome: 'add' | 'unchanged' | 'different' | 'pin-conflict' | 'pin-mismatch' | 'policy-requires-signed';
  /** The confirmations the popup would ask before this approval (components/popup/approve.ts). */
  needs: { unverified: boolean; crossOrigin: boolean };
}

/** What an import would do, computed from the file and the store without writing anything: the answer to skillpin:import-preview. */
export interface ImportPreview {
  ok: boolean;
  /** Why the file cannot be imported (ok is false); nothing would be written. */
  errors: string[];
  pins: { origin: string; fingerprint: string; outcome: 'add' | 'unchanged' | 'conflict' | 'revoked'; stored: string | null }[];
  approvals: ImportApprovalPreview[];
  revocations: { origin: string; fingerprint: string; outcome: 'add' | 'unchanged' }[];
  /** The settings the file would change (field, value now, value in the file); null when the file has none. */
  settings: { field: string; current: string; imported: string; managed?: boolean }[] | null;
}

function settingText(v: unknown): string {
  return JSON.stringify(v) ?? 'null';
}

/** The fields whose value in the file differs from the current one, in the file's order. */
function settingChanges(current: Settings, imported: Partial<Settings>, managed: readonly string[]): NonNullable<ImportPreview['settings']> {
  const out: NonNullable<ImportPreview['settings']> = [];
  for (const [field, value] of Object.entries(imported)) {
    const now = settingText((current as unknown as Record<string, unknown>)[field]);
    const then = settingText(value);
    // A managed field is listed even when equal: the import leaves it out (importBackup).
    if (managed.includes(field)) out.push({ field, current: now, imported: then, managed: true });
    else if (now !== then) out.push({ field, current: now, imported: then });
  }
  return out;
}

/**
 * `managed`: the settings fields the organisation's policy manages (marked, never imported);
 * `policy`: its other rules (signed-only approvals, pinned keys), as importBackup applies them.
 */
export async function previewImport(store: TrustStore, json: string, managed: readonly string[] = [], policy: ImportPolicy = {}): Promise<ImportPreview> {
  const errors: string[] = [];
  const empty: ImportPreview = { ok: false, errors, pins: [], approvals: [], revocations: [], settings: null };
  if (typeof json !== 'string') {
    errors.push('not JSON: expected text');
    return empty;
  }
  const parsed = readBackup(json, errors);
  if (!parsed) return empty;

  // Revoked after the import: what the store holds plus what the file adds.
  const revoked = new Set<string>();
  const key = (origin: string, fingerprint: string): string => `${origin} ${fingerprint}`;
  for (const entry of await store.listKeyHistory()) if (entry.state === 'revoked') revoked.add(key(entry.origin, entry.fingerprint));
  const revocations = parsed.revocations.map((r) => ({
    origin: r.origin,
    fingerprint: r.fingerprint,
    outcome: revoked.has(key(r.origin, r.fingerprint)) ? ('unchanged' as const) : ('add' as const),
  }));
  for (const r of parsed.revocations) revoked.add(key(r.origin, r.fingerprint));

  const pins: ImportPreview['pins'] = [];
  /** The pin each origin will have after the import; null: none. */
  const pinAfter = new Map<string, Pin | null>();
  const conflicted = new Set<string>();
  for (const pin of parsed.pins) {
    const stored = await store.getPin(pin.origin);
    const managedKey = policy.pinnedKeys?.find((k) => k.origin === pin.origin);
    let outcome: ImportPreview['pins'][number]['outcome'] = 'add';
    let decidingKey = stored?.fingerprint ?? null;
    if (managedKey && managedKey.fingerprint !== pin.fingerprint) {
      // The administrator's key decides (importBackup never pins another one).
      outcome = 'conflict';
      decidingKey = managedKey.fingerprint;
    } else if (stored) outcome = stored.fingerprint === pin.fingerprint && stored.key === pin.key ? 'unchanged' : 'conflict';
    else if (revoked.has(key(pin.origin, pin.fingerprint))) outcome = 'revoked';
    pins.push({ origin: pin.origin, fingerprint: pin.fingerprint, outcome, stored: decidingKey });
    if (outcome === 'conflict' || outcome === 'revoked') conflicted.add(pin.origin);
    pinAfter.set(pin.origin, outcome === 'add' ? pin : stored);
  }

  const outcomeOf = async (a: Approval, report: OriginReport | null): Promise<ImportApprovalPreview['outcome']> => {
    if (conflicted.has(a.origin)) return 'pin-conflict';
    if (!policyAllowsImport(a, report, policy.requireSigned === true)) return 'policy-requires-signed';
    const pin = pinAfter.has(a.origin) ? (pinAfter.get(a.origin) ?? null) : await store.getPin(a.origin);
    if (bindingError(a, null, pin)) return 'pin-mismatch';
    const existing = await store.getApproval(a.origin, a.url);
    // As importApproval judges it.
    if (!existing) return 'add';
    return sameApproval(existing, a) ? 'unchanged' : 'different';
  };
  const approvals: ImportApprovalPreview[] = [];
  for (const a of parsed.approvals) {
    const report = await store.getReport(a.origin).catch(() => null);
    const outcome = await outcomeOf(a, report);
    approvals.push({
      id: approvalId(a),
      origin: a.origin,
      url: a.url,
      // A publisher string, shown as every other one is (PRODUCT.md §6).
      name: display(a.name, NAME_MAX),
      statusAtApproval: a.statusAtApproval,
      keyFingerprint: a.keyFingerprint,
      outcome,
      needs: approvalNeeds(a, report),
    });
  }

  const settings = parsed.settings ? settingChanges(await store.getSettings(), parsed.settings, managed) : null;
  return { ok: true, errors, pins, approvals, revocations, settings };
}
