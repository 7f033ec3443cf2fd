// Export and import of pins, approvals, revoked keys and settings (PRODUCT.md §5) as JSON. Import
// checks every field, writes nothing when the file is malformed, never replaces a different pin
// (it reports the conflict), never pins a revoked key, does not import approvals of an origin whose
// pin conflicts, and imports an approval of an unverified or cross-host skill only with the
// confirmation the popup asks for it (lib/trust/import-preview.ts shows all of it first).
import { isApprovable } from '../types';
import type { Approval, ArchiveBinding, OriginReport, Pin, Settings, SkillStatus } from '../types';
import type { KeyHistoryEntry } from './records';
import { decodeBase64Strict } from '../verify/base64';
import { fileSetDigest } from '../verify/file-set';
import { fingerprint } from '../verify/fingerprint';
import { StoreError } from './errors';
import type { TrustStore } from './store-api';
import { pickSettings, readSettings } from './settings';
import { isDigestHex, isFiniteNumber, isObject, isSkillStatus, toArchiveBinding } from './validate';

/** The answer to skillpin:import (lib/messages.ts re-exports it). */
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

export const EXPORT_FORMAT = 'skillpin-trust';
/**
 * 2 adds `revocations` and `settings`; 3 adds an archive approval's `archive` (the file set it binds,
 * FORMATS.md §6.6). Files of versions 1 and 2 are still read: their archive approvals bind no files
 * and stay suspended until the user approves again (PRODUCT.md §9.2).
 */
export const EXPORT_VERSION = 3;
const READABLE_VERSIONS: readonly number[] = [1, 2, 3];

const ED25519_KEY_BYTES = 32;
/** "SHA256:" + 43 unpadded base64 characters. */
const FINGERPRINT_RE = /^SHA256:[A-Za-z0-9+/]{43}$/;

function comparePins(a: Pin, b: Pin): number {
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0;
}

function compareApprovals(a: Approval, b: Approval): number {
  if (a.origin !== b.origin) return a.origin < b.origin ? -1 : 1;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

/** What an export carries besides pins and approvals. */
export interface ExportExtras {
  /** Key history entries; only the revoked ones are exported. */
  keys?: KeyHistoryEntry[];
  settings?: Settings;
}

/** The export document: known fields only, sorted, indented for people to read and diff. */
export function exportTrust(pins: Pin[], approvals: Approval[], now: number, extras: ExportExtras = {}): string {
  const revocations = (extras.keys ?? [])
    .filter((k) => k.state === 'revoked')
    .map((k) => ({ origin: k.origin, fingerprint: k.fingerprint, revokedAt: k.revokedAt ?? k.lastSeen }))
    .sort((a, b) => (a.origin !== b.origin ? (a.origin < b.origin ? -1 : 1) : a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  const doc = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now,
    pins: [...pins].sort(comparePins).map((p) => ({
      origin: p.origin,
      key: p.key,
      fingerprint: p.fingerprint,
      firstSeen: p.firstSeen,
      lastSeen: p.lastSeen,
    })),
    approvals: [...approvals].sort(compareApprovals).map((a) => ({
      origin: a.origin,
      url: a.url,
      digestLf: a.digestLf,
      digestRaw: a.digestRaw,
      keyFingerprint: a.keyFingerprint,
      statusAtApproval: a.statusAtApproval,
      name: a.name,
      approvedAt: a.approvedAt,
      ...(a.archive ? { archive: { filesDigest: a.archive.filesDigest, sha256: a.archive.sha256, files: a.archive.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 })) } } : {}),
    })),
    revocations,
    ...(extras.settings ? { settings: pickSettings(extras.settings) } : {}),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === v;
  } catch {
    return false;
  }
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.href === v && u.hash === '';
  } catch {
    return false;
  }
}

function checkPin(v: unknown, where: string, errors: string[]): Pin | null {
  if (!isObject(v)) {
    errors.push(`${where}: not an object`);
    return null;
  }
  const before = errors.length;
  const { origin, key, fingerprint: fp, firstSeen, lastSeen } = v;
  if (!isOrigin(origin)) errors.push(`${where}.origin: not an http(s) origin`);
  let keyBytes: Uint8Array | null = null;
  if (typeof key !== 'string' || key.trim() !== key) errors.push(`${where}.key: not a base64 string`);
  else {
    keyBytes = decodeBase64Strict(key);
    if (!keyBytes) errors.push(`${where}.key: not strict base64`);
    else if (keyBytes.length !== ED25519_KEY_BYTES) errors.push(`${where}.key: ${keyBytes.length} bytes, an ed25519 key has ${ED25519_KEY_BYTES}`);
  }
  if (typeof fp !== 'string' || !FINGERPRINT_RE.test(fp)) errors.push(`${where}.fingerprint: not a SHA256: fingerprint`);
  else if (keyBytes && keyBytes.length === ED25519_KEY_BYTES && fingerprint(keyBytes) !== fp) {
    errors.push(`${where}.fingerprint: does not match the key`);
  }
  if (!isFiniteNumber(firstSeen) || firstSeen < 0) errors.push(`${where}.firstSeen: not a time`);
  if (!isFiniteNumber(lastSeen) || lastSeen < 0) errors.push(`${where}.lastSeen: not a time`);
  if (isFiniteNumber(firstSeen) && isFiniteNumber(lastSeen) && lastSeen < firstSeen) errors.push(`${where}: lastSeen is before firstSeen`);
  if (errors.length > before) return null;
  return { origin: origin as string, key: key as string, fingerprint: fp as string, firstSeen: firstSeen as number, lastSeen: lastSeen as number };
}

function checkApproval(v: unknown, where: string, errors: string[]): Approval | null {
  if (!isObject(v)) {
    errors.push(`${where}: not an object`);
    return null;
  }
  const before = errors.length;
  const { origin, url, digestLf, digestRaw, keyFingerprint, statusAtApproval, name, approvedAt } = v;
  if (!isOrigin(origin)) errors.push(`${where}.origin: not an http(s) origin`);
  if (!isHttpUrl(url)) errors.push(`${where}.url: not an absolute http(s) URL without fragment`);
  if (!isDigestHex(digestLf) || digestLf !== digestLf.toLowerCase()) errors.push(`${where}.digestLf: not 64 lowercase hex digits`);
  if (!isDigestHex(digestRaw) || digestRaw !== digestRaw.toLowerCase()) errors.push(`${where}.digestRaw: not 64 lowercase hex digits`);
  if (!(keyFingerprint === null || (typeof keyFingerprint === 'string' && FINGERPRINT_RE.test(keyFingerprint)))) {
    errors.push(`${where}.keyFingerprint: neither null nor a SHA256: fingerprint`);
  }
  if (!isSkillStatus(statusAtApproval) || !isApprovable(statusAtApproval)) errors.push(`${where}.statusAtApproval: not an approvable status`);
  if (typeof name !== 'string') errors.push(`${where}.name: not a string`);
  if (!isFiniteNumber(approvedAt) || approvedAt < 0) errors.push(`${where}.approvedAt: not a time`);
  const archive = v.archive === undefined ? undefined : checkArchiveBinding(v.archive, `${where}.archive`, errors);
  if (errors.length > before) return null;
  const approval: Approval = {
    origin: origin as string,
    url: url as string,
    digestLf: digestLf as string,
    digestRaw: digestRaw as string,
    keyFingerprint: keyFingerprint as string | null,
    statusAtApproval: statusAtApproval as Approval['statusAtApproval'],
    name: name as string,
    approvedAt: approvedAt as number,
  };
  if (archive) approval.archive = archive;
  return approval;
}

/** The files an archive approval binds: digests in lowercase hex, relative paths, each once, the set's digest matching them. */
function checkArchiveBinding(v: unknown, where: string, errors: string[]): ArchiveBinding | null {
  const lowerHex = (h: unknown): boolean => isDigestHex(h) && h === h.toLowerCase();
  if (!isObject(v) || !lowerHex(v.filesDigest) || !lowerHex(v.sha256) || !Array.isArray(v.files)) {
    errors.push(`${where}: not { filesDigest, sha256, files } with 64 lowercase hex digits`);
    return null;
  }
  const binding = toArchiveBinding(v);
  const badPath = (v.files as unknown[]).findIndex((f) => !isObject(f) || typeof f.path !== 'string' || !isRelativePath(f.path) || !lowerHex(f.sha256));
  if (!binding || badPath >= 0) {
    errors.push(`${where}.files${badPath >= 0 ? `[${badPath}]` : ''}: not a list of distinct { path, size, sha256 } with relative paths`);
    return null;
  }
  if (fileSetDigest(binding.files) !== binding.filesDigest) {
    errors.push(`${where}.filesDigest: does not match its files`);
    return null;
  }
  return binding;
}

/** A relative `/`-separated path without empty, `.` or `..` segments, backslashes or control characters (FORMATS.md §6.4). */
function isRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || /[\\\u0000-\u001f]/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** A revoked key as the export carries it. */
export interface Revocation {
  origin: string;
  fingerprint: string;
  revokedAt: number;
}

function checkRevocation(v: unknown, where: string, errors: string[]): Revocation | null {
  if (!isObject(v)) {
    errors.push(`${where}: not an object`);
    return null;
  }
  const before = errors.length;
  if (!isOrigin(v.origin)) errors.push(`${where}.origin: not an http(s) origin`);
  if (typeof v.fingerprint !== 'string' || !FINGERPRINT_RE.test(v.fingerprint)) errors.push(`${where}.fingerprint: not a SHA256: fingerprint`);
  if (!isFiniteNumber(v.revokedAt) || v.revokedAt < 0) errors.push(`${where}.revokedAt: not a time`);
  if (errors.length > before) return null;
  return { origin: v.origin as string, fingerprint: v.fingerprint as string, revokedAt: v.revokedAt as number };
}

/** The settings fields a file sets (fields it leaves out keep their current value). */
function checkSettings(v: unknown, errors: string[]): Partial<Settings> | null {
  if (!isObject(v)) {
    errors.push('settings: not an object');
    return null;
  }
  const { settings, invalid } = readSettings(v);
  if (invalid.length > 0) {
    errors.push(`settings: unusable ${invalid.join(', ')}`);
    return null;
  }
  const out: Partial<Settings> = {};
  for (const field of Object.keys(settings) as (keyof Settings)[]) {
    if (v[field] !== undefined) (out as Record<string, unknown>)[field] = settings[field];
  }
  return out;
}

/** A valid import file. */
export interface ParsedExport {
  pins: Pin[];
  approvals: Approval[];
  revocations: Revocation[];
  /** null when the file carries no settings. */
  settings: Partial<Settings> | null;
}

/** Parses and checks a whole file; null (with `errors`) when anything in it is wrong. */
export function parseExport(json: string, errors: string[]): ParsedExport | null {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    errors.push(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  if (!isObject(doc)) {
    errors.push('not a Skillpin trust export (expected an object)');
    return null;
  }
  if (doc.format !== EXPORT_FORMAT) {
    errors.push(`not a Skillpin trust export (format is not "${EXPORT_FORMAT}")`);
    return null;
  }
  if (typeof doc.version !== 'number' || !READABLE_VERSIONS.includes(doc.version)) {
    errors.push(`unsupported export version ${JSON.stringify(doc.version)} (this Skillpin reads versions ${READABLE_VERSIONS.join(' and ')})`);
    return null;
  }
  if (!isFiniteNumber(doc.exportedAt)) errors.push('exportedAt: not a time');
  if (!Array.isArray(doc.pins)) errors.push('pins: not a list');
  if (!Array.isArray(doc.approvals)) errors.push('approvals: not a list');
  if (!Array.isArray(doc.pins) || !Array.isArray(doc.approvals)) return null;

  const pins: Pin[] = [];
  const pinByOrigin = new Map<string, Pin>();
  doc.pins.forEach((raw, i) => {
    const pin = checkPin(raw, `pins[${i}]`, errors);
    if (!pin) return;
    if (pinByOrigin.has(pin.origin)) errors.push(`pins[${i}]: a second pin for ${pin.origin}`);
    pinByOrigin.set(pin.origin, pin);
    pins.push(pin);
  });
  const approvals: Approval[] = [];
  const seen = new Set<string>();
  doc.approvals.forEach((raw, i) => {
    const approval = checkApproval(raw, `approvals[${i}]`, errors);
    if (!approval) return;
    const id = `${approval.origin} ${approval.url}`;
    if (seen.has(id)) errors.push(`approvals[${i}]: a second approval for ${approval.url} on ${approval.origin}`);
    seen.add(id);
    approvals.push(approval);
  });
  const revocations: Revocation[] = [];
  if (doc.revocations !== undefined) {
    if (!Array.isArray(doc.revocations)) errors.push('revocations: not a list');
    else {
      const revokedIds = new Set<string>();
      doc.revocations.forEach((raw, i) => {
        const r = checkRevocation(raw, `revocations[${i}]`, errors);
        if (!r) return;
        const id = `${r.origin} ${r.fingerprint}`;
        if (revokedIds.has(id)) errors.push(`revocations[${i}]: ${r.fingerprint} is revoked twice for ${r.origin}`);
        revokedIds.add(id);
        revocations.push(r);
      });
    }
  }
  const settings = doc.settings === undefined ? null : checkSettings(doc.settings, errors);
  return errors.length > 0 ? null : { pins, approvals, revocations, settings };
}

/**
 * The popup's confirmations for an approval (components/shared/approve.ts): unverified bytes,
 * another host. Judged from what this browser has seen of the skill (`report`, the origin's last
 * report), never from what the file claims (PRODUCT.md §5): a skill this browser has not verified
 * with exactly the approved bytes counts as unverified, and its host is the one that served it.
 */
export function approvalNeeds(a: Approval, report: OriginReport | null): { unverified: boolean; crossOrigin: boolean } {
  const seen = report?.skills.find((s) => s.url === a.url) ?? null;
  const verified = seen !== null && seen.actual?.lf === a.digestLf && VERIFIED_STATUSES.has(seen.status);
  let host: string | null = null;
  try {
    host = new URL(a.url).origin;
  } catch {
    host = null;
  }
  return { unverified: !verified, crossOrigin: seen?.crossOrigin === true || host !== a.origin };
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
 * Imports an export. Nothing is written unless the whole document is valid. Revocations are
 * written first, so a pin in the same file for a revoked key is refused (pinsRevoked). A pin that
 * differs from the stored one is reported in pinConflicts and the stored pin stays; approvals of
 * that origin are skipped. An approval of an unverified or cross-host skill is imported only when
 * its id is in the matching confirmation list. Imported pins are first seen now (in this browser).
 */
export async function importTrust(
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
  const parsed = parseExport(json, errors);
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
  for (const pin of parsed.pins) {
    const managedKey = policy.pinnedKeys?.find((k) => k.origin === pin.origin);
    if (managedKey && managedKey.fingerprint !== pin.fingerprint) {
      // The administrator's key for the origin decides; the file's other key is never pinned.
      conflicted.add(pin.origin);
      result.pinConflicts.push({ origin: pin.origin, stored: managedKey.fingerprint, imported: pin.fingerprint });
      continue;
    }
    try {
      const stored = await store.getPin(pin.origin);
      if (stored) {
        if (stored.fingerprint === pin.fingerprint && stored.key === pin.key) result.pinsUnchanged++;
        else {
          conflicted.add(pin.origin);
          result.pinConflicts.push({ origin: pin.origin, stored: stored.fingerprint, imported: pin.fingerprint });
        }
        continue;
      }
      const outcome = await store.pinIfAbsent(pin.origin, pin.key, pin.fingerprint, now);
      if (outcome.result === 'pinned') {
        result.pinsAdded++;
        changed.add(pin.origin);
      }
      else if (outcome.result === 'match') result.pinsUnchanged++;
      else if (outcome.result === 'revoked') {
        conflicted.add(pin.origin);
        result.pinsRevoked?.push({ origin: pin.origin, fingerprint: pin.fingerprint });
      } else {
        conflicted.add(pin.origin);
        result.pinConflicts.push({ origin: pin.origin, stored: outcome.pin.fingerprint, imported: pin.fingerprint });
      }
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
    if (!store.importApproval) {
      errors.push(`approval of ${approval.url} not imported: this store cannot import approvals`);
      continue;
    }
    try {
      const outcome = await store.importApproval(approval);
      if (outcome === 'added') {
        result.approvalsAdded++;
        changed.add(approval.origin);
      }
      else if (outcome === 'unchanged') result.approvalsUnchanged = (result.approvalsUnchanged ?? 0) + 1;
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
