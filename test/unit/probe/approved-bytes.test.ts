// What an approval is made of, and the bytes it lets out.
import { describe, expect, it } from 'vitest';
import { approvalFor, approvalKeyFingerprint, approvalOf, approvedBytes, archiveBindingOf, canBind, changesSinceApproval } from '../../../lib/probe/approved-bytes';
import { ALL_STATUSES, type Pin } from '../../../lib/types';
import type { StoredSkill } from '../../../lib/store/records';

const A = 'a'.repeat(64);
const F = 'f'.repeat(64);
const enc = new TextEncoder();
const fields = { keyFingerprint: null, statusAtApproval: 'verified' as const, name: 'runner', approvedAt: 1 };
const skillMd: StoredSkill = { origin: 'https://o.example', url: 'https://o.example/SKILL.md', digestLf: A, digestRaw: A, bytes: enc.encode('# x\n'), storedAt: 1 };
const archive = (over: Partial<NonNullable<StoredSkill['archive']>> = {}): StoredSkill => ({
  ...skillMd,
  url: 'https://o.example/r.zip',
  archive: {
    sha256: 'c'.repeat(64),
    format: 'zip',
    entries: [
      { path: 'scripts', size: 0, type: 'directory' },
      { path: 'SKILL.md', size: 4, type: 'file', sha256: A },
      { path: 'scripts/run.sh', size: 3, type: 'file', sha256: 'b'.repeat(64) },
    ],
    filesDigest: F,
    files: [{ path: 'scripts/run.sh', bytes: enc.encode('ls\n') }],
    ...over,
  },
});

describe('approvalOf', () => {
  it('binds a SKILL.md by its digests only', () => {
    expect(approvalOf(skillMd, fields)).toEqual({ origin: skillMd.origin, url: skillMd.url, digestLf: A, digestRaw: A, ...fields });
  });
  it('binds an archive by its file set, every file but the root SKILL.md, the archive digest beside', () => {
    expect(approvalOf(archive(), fields).archive).toEqual({ filesDigest: F, sha256: 'c'.repeat(64), files: [{ path: 'scripts/run.sh', size: 3, sha256: 'b'.repeat(64) }] });
  });
  it('refuses an archive record of an older version (no file digests): it cannot be approved as it is', () => {
    const old = archive({
      filesDigest: undefined,
      entries: [
        { path: 'SKILL.md', size: 4, type: 'file' },
        { path: 'scripts/run.sh', size: 3, type: 'file' },
      ],
    });
    expect(canBind(old)).toBe(false);
    expect(() => archiveBindingOf(old)).toThrow(/no recorded digest/);
    expect(canBind(archive())).toBe(true);
    expect(canBind(skillMd)).toBe(true);
  });
});

describe('approvalFor', () => {
  const pinned: Pin = { origin: skillMd.origin, key: 'x', fingerprint: 'SHA256:' + 'k'.repeat(43), firstSeen: 1, lastSeen: 1 };
  it('binds the pinned key only when the skill verified signed', () => {
    for (const status of ALL_STATUSES) {
      expect(approvalKeyFingerprint({ pinned }, status), status).toBe(status === 'verified-signed' ? pinned.fingerprint : null);
      expect(approvalKeyFingerprint({ pinned: null }, status), status).toBeNull();
    }
  });
  it('is approvalOf with that key, the status, the name and the time', () => {
    expect(approvalFor(skillMd, { pinned }, { status: 'verified-signed', name: 'runner' }, 7)).toEqual(
      approvalOf(skillMd, { keyFingerprint: pinned.fingerprint, statusAtApproval: 'verified-signed', name: 'runner', approvedAt: 7 }),
    );
    expect(approvalFor(archive(), { pinned }, { status: 'unverified', name: 'r' }, 2)).toEqual(
      approvalOf(archive(), { keyFingerprint: null, statusAtApproval: 'unverified', name: 'r', approvedAt: 2 }),
    );
  });
});

describe('approvedBytes', () => {
  const storeOf = (records: StoredSkill[]) => ({
    getSkill: async (o: string, u: string, d: string, f = '') => records.find((r) => r.origin === o && r.url === u && r.digestLf === d && (r.archive?.filesDigest ?? '') === f) ?? null,
  });
  it('reads the record of exactly the approved content', async () => {
    const approval = approvalOf(archive(), fields);
    const newer = archive({ filesDigest: 'e'.repeat(64) });
    expect(await approvedBytes(storeOf([newer, archive()]), approval)).toEqual(archive());
    expect(await approvedBytes(storeOf([newer]), approval)).toBeNull();
  });
  it('lets nothing out for an archive approval that binds no files', async () => {
    const { archive: _, ...old } = approvalOf(archive(), fields);
    expect(await approvedBytes(storeOf([archive({ filesDigest: undefined })]), old)).toBeNull();
  });
});

describe('changesSinceApproval', () => {
  it('is null without an archive binding, and lists the files otherwise', () => {
    const approval = approvalOf(archive(), fields);
    expect(changesSinceApproval({ ...approval, archive: undefined }, archive(), archive())).toBeNull();
    const current = archive({
      filesDigest: 'e'.repeat(64),
      entries: [
        { path: 'SKILL.md', size: 4, type: 'file', sha256: A },
        { path: 'scripts/run.sh', size: 4, type: 'file', sha256: 'd'.repeat(64) },
      ],
      files: [{ path: 'scripts/run.sh', bytes: enc.encode('pwd\n') }],
    });
    expect(changesSinceApproval(approval, archive(), current)).toEqual([
      { path: 'scripts/run.sh', change: 'changed', before: { size: 3, sha256: 'b'.repeat(64) }, after: { size: 4, sha256: 'd'.repeat(64) }, text: { before: 'ls\n', after: 'pwd\n' } },
    ]);
  });
});
