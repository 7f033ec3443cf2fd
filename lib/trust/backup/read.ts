// Reading a trust backup: the whole file is parsed and every field checked; one wrong field makes
// the file unusable (with every error listed), so nothing of a malformed file is ever imported.
import { isApprovable } from '../../types';
import type { Approval, ArchiveBinding, Pin, Settings } from '../../types';
import { isHttpOrigin } from '../../origin';
import { decodeBase64Strict } from '../../verify/base64';
import { fileSetDigest } from '../../verify/file-set';
import { fingerprint } from '../../verify/fingerprint';
import { readSettings } from '../settings';
import { isDigestHex, isFiniteNumber, isObject, isSkillStatus, toArchiveBinding } from '../validate';
import { BACKUP_FORMAT, READABLE_VERSIONS } from './format';

const ED25519_KEY_BYTES = 32;
/** "SHA256:" + 43 unpadded base64 characters. */
const FINGERPRINT_RE = /^SHA256:[A-Za-z0-9+/]{43}$/;

function isPlainHttpUrl(v: unknown): v is string {
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
  if (!isHttpOrigin(origin)) errors.push(`${where}.origin: not an http(s) origin`);
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
  if (!isHttpOrigin(origin)) errors.push(`${where}.origin: not an http(s) origin`);
  if (!isPlainHttpUrl(url)) errors.push(`${where}.url: not an absolute http(s) URL without fragment`);
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
  if (!isHttpOrigin(v.origin)) errors.push(`${where}.origin: not an http(s) origin`);
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
export interface ParsedBackup {
  pins: Pin[];
  approvals: Approval[];
  revocations: Revocation[];
  /** null when the file carries no settings. */
  settings: Partial<Settings> | null;
}

/** Parses and checks a whole file; null (with `errors`) when anything in it is wrong. */
export function readBackup(json: string, errors: string[]): ParsedBackup | null {
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
  if (doc.format !== BACKUP_FORMAT) {
    errors.push(`not a Skillpin trust export (format is not "${BACKUP_FORMAT}")`);
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
