// Export and import of pins and approvals (PRODUCT.md §5) as JSON. Import checks every field,
// writes nothing when the file is malformed, never replaces a different pin (it reports the
// conflict), and does not import approvals of an origin whose pin conflicts.
import type { ImportResult } from '../messages';
import { isApprovable } from '../types';
import type { Approval, Pin } from '../types';
import { decodeBase64Strict } from '../verify/base64';
import { fingerprint } from '../verify/fingerprint';
import { StoreError } from './errors';
import type { TrustStore } from './store-api';
import { isDigestHex, isFiniteNumber, isObject, isSkillStatus } from './validate';

export const EXPORT_FORMAT = 'skillpin-trust';
export const EXPORT_VERSION = 1;

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

/** The export document: known fields only, sorted, indented for people to read and diff. */
export function exportTrust(pins: Pin[], approvals: Approval[], now: number): string {
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
    })),
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
  if (errors.length > before) return null;
  return v as unknown as Approval;
}

interface Parsed {
  pins: Pin[];
  approvals: Approval[];
}

function parseExport(json: string, errors: string[]): Parsed | null {
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
  if (doc.version !== EXPORT_VERSION) {
    errors.push(`unsupported export version ${JSON.stringify(doc.version)} (this Skillpin reads version ${EXPORT_VERSION})`);
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
  return errors.length > 0 ? null : { pins, approvals };
}

function describe(e: unknown): string {
  if (e instanceof StoreError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Imports an export. Nothing is written unless the whole document is valid. A pin that differs
 * from the stored one is reported in pinConflicts and the stored pin stays; approvals of that
 * origin are skipped. Imported pins are first seen now (in this browser).
 */
export async function importTrust(store: TrustStore, json: string, now: number): Promise<ImportResult> {
  const result: ImportResult = {
    ok: false,
    pinsAdded: 0,
    pinsUnchanged: 0,
    pinConflicts: [],
    approvalsAdded: 0,
    approvalsUnchanged: 0,
    approvalsSkipped: [],
    errors: [],
  };
  const errors = result.errors;
  const skipped = result.approvalsSkipped ?? [];
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

  const conflicted = new Set<string>();
  for (const pin of parsed.pins) {
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
      if (outcome.result === 'pinned') result.pinsAdded++;
      else if (outcome.result === 'match') result.pinsUnchanged++;
      else {
        conflicted.add(pin.origin);
        result.pinConflicts.push({ origin: pin.origin, stored: outcome.pin.fingerprint, imported: pin.fingerprint });
      }
    } catch (e) {
      conflicted.add(pin.origin);
      errors.push(`pin of ${pin.origin} not imported: ${describe(e)}`);
    }
  }

  for (const approval of parsed.approvals) {
    if (conflicted.has(approval.origin)) {
      skipped.push({ origin: approval.origin, url: approval.url, reason: 'pin-conflict' });
      continue;
    }
    if (!store.importApproval) {
      errors.push(`approval of ${approval.url} not imported: this store cannot import approvals`);
      continue;
    }
    try {
      const outcome = await store.importApproval(approval);
      if (outcome === 'added') result.approvalsAdded++;
      else if (outcome === 'unchanged') result.approvalsUnchanged = (result.approvalsUnchanged ?? 0) + 1;
      else skipped.push({ origin: approval.origin, url: approval.url, reason: outcome === 'different' ? 'different-approval' : 'pin-mismatch' });
    } catch (e) {
      errors.push(`approval of ${approval.url} not imported: ${describe(e)}`);
    }
  }
  result.ok = errors.length === 0;
  return result;
}
