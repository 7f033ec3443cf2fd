// Writing a trust backup (PRODUCT.md §5): known fields only, sorted, indented for people to read and diff.
import type { Approval, Pin, Settings } from '../../types';
import type { KeyHistoryEntry } from '../records';
import { pickSettings } from '../settings';
import { BACKUP_FORMAT, BACKUP_VERSION } from './format';

function comparePins(a: Pin, b: Pin): number {
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0;
}

function compareApprovals(a: Approval, b: Approval): number {
  if (a.origin !== b.origin) return a.origin < b.origin ? -1 : 1;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

/** What a backup carries besides pins and approvals. */
export interface BackupExtras {
  /** Key history entries; only the revoked ones are written. */
  keys?: KeyHistoryEntry[];
  settings?: Settings;
}

/** The backup document. */
export function writeBackup(pins: Pin[], approvals: Approval[], now: number, extras: BackupExtras = {}): string {
  const revocations = (extras.keys ?? [])
    .filter((k) => k.state === 'revoked')
    .map((k) => ({ origin: k.origin, fingerprint: k.fingerprint, revokedAt: k.revokedAt ?? k.lastSeen }))
    .sort((a, b) => (a.origin !== b.origin ? (a.origin < b.origin ? -1 : 1) : a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  const doc = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
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
