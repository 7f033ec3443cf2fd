// FORMATS.md §10 precedence and the approval state (PRODUCT.md §6, §9.2, §9.3), one row per branch.
import { describe, expect, it } from 'vitest';
import { approvalBindsContent, contentOfSkill, contentOfStored, decideStatus, type StatusFacts } from '../../../lib/probe/status';
import type { Approval, ApprovalReport, SkillStatus } from '../../../lib/types';
import type { DigestCheck } from '../../../lib/verify/digest';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const FP = 'SHA256:pinned';

const ok: DigestCheck = { rawHex: A, lfHex: A, matchedForm: 'raw', undeclared: false, mismatch: false };
const undeclared: DigestCheck = { ...ok, matchedForm: null, undeclared: true };
const mismatch: DigestCheck = { ...ok, matchedForm: null, mismatch: true };

function approval(p: Partial<Approval> = {}): Approval {
  return { origin: 'https://o', url: 'https://o/s', digestLf: A, digestRaw: A, keyFingerprint: FP, statusAtApproval: 'verified-signed', name: 's', approvedAt: 1, ...p };
}

/** A signed, verified, unapproved skill; each row changes what it needs. */
function facts(p: Partial<StatusFacts> = {}): StatusFacts {
  return {
    refusal: null,
    disagree: false,
    obtainFailure: null,
    digest: ok,
    archiveFailure: null,
    keyState: 'match',
    keyUnavailable: false,
    signature: 'valid',
    signatureFailure: null,
    snapshot: null,
    approval: null,
    archiveFiles: null,
    currentFingerprint: FP,
    ...p,
  };
}

const F1 = '1'.repeat(64);
const F2 = '2'.repeat(64);
const binding = (filesDigest: string) => ({ filesDigest, sha256: 'c'.repeat(64), files: [] });

const rows: Array<{ name: string; f: Partial<StatusFacts>; status: SkillStatus; code: string; approval?: ApprovalReport['state']; because?: SkillStatus | null; approvalCode?: string }> = [
  // 1–2: refusals come first, whatever else is true.
  {
    name: '1 unsupported beats everything',
    f: { refusal: { status: 'unsupported', code: 'index-type-unsupported', message: 'x' }, disagree: true, digest: mismatch, keyState: 'changed' },
    status: 'unsupported',
    code: 'index-type-unsupported',
  },
  { name: '2 invalid (bad declared digest / URL)', f: { refusal: { status: 'invalid', code: 'url-placeholder', message: 'x' }, disagree: true }, status: 'invalid', code: 'url-placeholder' },
  // 3
  {
    name: '3 sources-disagree beats fetch failure and key change',
    f: { disagree: true, obtainFailure: { status: 'fetch-failed', code: 'fetch-not-found', message: 'x' }, keyState: 'changed' },
    status: 'sources-disagree',
    code: 'sources-disagree',
  },
  // 4
  {
    name: '4 fetch-failed beats digest and key',
    f: { obtainFailure: { status: 'fetch-failed', code: 'fetch-not-found', message: 'x' }, digest: null, keyState: 'changed' },
    status: 'fetch-failed',
    code: 'fetch-not-found',
  },
  { name: '4 too-large', f: { obtainFailure: { status: 'too-large', code: 'fetch-too-large', message: 'x' }, digest: null }, status: 'too-large', code: 'fetch-too-large' },
  { name: '4 blocked redirect is invalid at the fetch step', f: { obtainFailure: { status: 'invalid', code: 'url-blocked', message: 'x' }, digest: null }, status: 'invalid', code: 'url-blocked' },
  { name: '4 no bytes and no reason is still fetch-failed', f: { digest: null }, status: 'fetch-failed', code: 'fetch-transient' },
  // 5
  {
    name: '5 digest-mismatch beats archive, key and signature',
    f: { digest: mismatch, archiveFailure: { status: 'invalid', code: 'archive-x', message: 'x' }, keyState: 'changed', signature: 'invalid' },
    status: 'digest-mismatch',
    code: 'digest-mismatch',
  },
  // 6
  {
    name: '6 archive safety violation is invalid after the digest',
    f: { archiveFailure: { status: 'invalid', code: 'archive-path-dotdot', message: 'x' }, keyState: 'changed' },
    status: 'invalid',
    code: 'archive-path-dotdot',
  },
  { name: '6 archive over its caps is too-large', f: { archiveFailure: { status: 'too-large', code: 'archive-too-many-files', message: 'x' } }, status: 'too-large', code: 'archive-too-many-files' },
  {
    name: '6 unknown archive format is unsupported',
    f: { archiveFailure: { status: 'unsupported', code: 'archive-format-unknown', message: 'x' } },
    status: 'unsupported',
    code: 'archive-format-unknown',
  },
  // 7
  { name: '7 key changed', f: { keyState: 'changed', signature: 'not-checked' }, status: 'key-changed', code: 'key-changed' },
  { name: '7 key conflict', f: { keyState: 'conflict', signature: 'not-checked' }, status: 'key-changed', code: 'key-conflict' },
  { name: '7 pinned origin stopped signing', f: { keyState: 'stopped-signing', signature: 'not-checked' }, status: 'key-changed', code: 'key-stopped-signing' },
  { name: '7 key documents unreachable on a pinned origin', f: { keyState: 'none', keyUnavailable: true, signature: 'not-checked' }, status: 'fetch-failed', code: 'key-unavailable' },
  {
    name: '7 approved signed, entry lost its signature (§9.3)',
    f: { signature: 'missing', currentFingerprint: null, approval: approval() },
    status: 'key-changed',
    code: 'key-downgrade',
    approval: 'suspended',
    because: 'key-changed',
  },
  {
    name: '7 approved signed, origin no longer signs',
    f: { keyState: 'none', signature: 'not-signing', currentFingerprint: null, approval: approval() },
    status: 'key-changed',
    code: 'key-downgrade',
    approval: 'suspended',
    because: 'key-changed',
  },
  { name: '7 approved under another key', f: { approval: approval({ keyFingerprint: 'SHA256:other' }) }, status: 'key-changed', code: 'key-changed', approval: 'suspended', because: 'key-changed' },
  { name: '7 key change beats bad signature', f: { keyState: 'changed', signature: 'invalid' }, status: 'key-changed', code: 'key-changed' },
  // 8
  { name: '8 bad signature', f: { signature: 'invalid', signatureFailure: { code: 'bad-signature', message: 'x' }, currentFingerprint: null }, status: 'bad-signature', code: 'bad-signature' },
  {
    name: '8 malformed signature',
    f: { signature: 'invalid', signatureFailure: { code: 'signature-malformed', message: 'x' }, currentFingerprint: null },
    status: 'bad-signature',
    code: 'signature-malformed',
  },
  {
    name: '8 bad signature beats content change (approved)',
    f: { signature: 'invalid', currentFingerprint: null, digest: { ...ok, rawHex: B, lfHex: B }, approval: approval() },
    status: 'bad-signature',
    code: 'bad-signature',
    approval: 'suspended',
    because: 'bad-signature',
  },
  { name: '8 snapshot-v1 failure is bad-signature (§9.4)', f: { snapshot: { state: 'failed', revision: null, message: 'nope' } }, status: 'bad-signature', code: 'snapshot-failed' },
  // 9
  {
    name: '9 content changed under the same key',
    f: { digest: { ...ok, rawHex: B, lfHex: B }, approval: approval() },
    status: 'content-changed',
    code: 'content-changed',
    approval: 'suspended',
    because: 'content-changed',
  },
  {
    name: '9 content changed on an unsigned origin',
    f: { keyState: 'none', signature: 'not-signing', currentFingerprint: null, digest: { ...ok, rawHex: B, lfHex: B }, approval: approval({ keyFingerprint: null }) },
    status: 'content-changed',
    code: 'content-changed',
    approval: 'suspended',
    because: 'content-changed',
  },
  {
    name: '9 CRLF-only change keeps the approval (lf digest bound)',
    f: { digest: { ...ok, rawHex: B, lfHex: A, matchedForm: 'lf-normalized' }, approval: approval({ digestRaw: A }) },
    status: 'verified-signed',
    code: 'verified-signed',
    approval: 'approved',
  },
  {
    name: '9 archive: a file changed under the same SKILL.md',
    f: { archiveFiles: { filesDigest: F2 }, approval: approval({ archive: binding(F1) }) },
    status: 'content-changed',
    code: 'archive-files-changed',
    approval: 'suspended',
    because: 'content-changed',
    approvalCode: 'archive-files-changed',
  },
  {
    name: '9 archive: SKILL.md and files changed',
    f: { digest: { ...ok, rawHex: B, lfHex: B }, archiveFiles: { filesDigest: F2 }, approval: approval({ archive: binding(F1) }) },
    status: 'content-changed',
    code: 'content-changed',
    approval: 'suspended',
    because: 'content-changed',
  },
  {
    name: '9 archive: the same files (a re-packed archive) keep the approval',
    f: { archiveFiles: { filesDigest: F1 }, approval: approval({ archive: binding(F1) }) },
    status: 'verified-signed',
    code: 'verified-signed',
    approval: 'approved',
  },
  {
    name: '9 an approval that binds files, and the skill is no archive any more',
    f: { archiveFiles: null, approval: approval({ archive: binding(F1) }) },
    status: 'content-changed',
    code: 'archive-files-changed',
    approval: 'suspended',
  },
  {
    name: '9 archive approved by an older version (no files bound): verified, approval suspended',
    f: { archiveFiles: { filesDigest: F1 }, approval: approval() },
    status: 'verified-signed',
    code: 'verified-signed',
    approval: 'suspended',
    because: 'content-changed',
    approvalCode: 'approval-files-unbound',
  },
  {
    name: '9 archive whose files are not known: the approval cannot vouch for them',
    f: { archiveFiles: { filesDigest: null }, approval: approval({ archive: binding(F1) }) },
    status: 'verified-signed',
    code: 'verified-signed',
    approval: 'suspended',
    approvalCode: 'approval-files-unbound',
  },
  // 10
  { name: '10 verified-signed', f: {}, status: 'verified-signed', code: 'verified-signed', approval: 'none' },
  { name: '10 verified-signed and approved', f: { approval: approval() }, status: 'verified-signed', code: 'verified-signed', approval: 'approved' },
  { name: '10 verified (origin does not sign)', f: { keyState: 'none', signature: 'not-signing', currentFingerprint: null }, status: 'verified', code: 'verified' },
  { name: '10 verified with a warning: unsigned entry in a signing index', f: { signature: 'missing', currentFingerprint: null }, status: 'verified', code: 'verified-unsigned-entry' },
  { name: '10 unverified (nothing declared)', f: { digest: undeclared, keyState: 'none', signature: 'not-signing', currentFingerprint: null }, status: 'unverified', code: 'unverified-no-digest' },
  {
    name: '10 unverified approval binds the lf digest',
    f: { digest: undeclared, keyState: 'none', signature: 'not-signing', currentFingerprint: null, approval: approval({ keyFingerprint: null, statusAtApproval: 'unverified' }) },
    status: 'unverified',
    code: 'unverified-no-digest',
    approval: 'approved',
  },
  {
    name: '10 approved unsigned, now signed: approval renewed',
    f: { approval: approval({ keyFingerprint: null }) },
    status: 'verified-signed',
    code: 'verified-signed',
    approval: 'suspended',
    because: 'key-changed',
  },
  {
    name: 'a failing status suspends an approval',
    f: { obtainFailure: { status: 'fetch-failed', code: 'fetch-not-found', message: 'x' }, digest: null, approval: approval() },
    status: 'fetch-failed',
    code: 'fetch-not-found',
    approval: 'suspended',
    because: 'fetch-failed',
  },
];

describe('decideStatus', () => {
  for (const r of rows) {
    it(r.name, () => {
      const d = decideStatus(facts(r.f));
      expect(d.status).toBe(r.status);
      expect(d.code).toBe(r.code);
      expect(d.message.length).toBeGreaterThan(0);
      if (r.approval !== undefined) expect(d.approval.state).toBe(r.approval);
      if (r.because !== undefined) expect(d.approval.suspendedBecause).toBe(r.because);
      if (r.approvalCode !== undefined) expect(d.approval.code).toBe(r.approvalCode);
      if (d.approval.state === 'none') expect(d.approval.approval).toBeNull();
    });
  }

  it('covers every status', () => {
    const covered = new Set(rows.map((r) => r.status));
    for (const s of [
      'verified-signed',
      'verified',
      'unverified',
      'digest-mismatch',
      'sources-disagree',
      'bad-signature',
      'key-changed',
      'content-changed',
      'fetch-failed',
      'too-large',
      'invalid',
      'unsupported',
    ] as const) {
      expect(covered.has(s), s).toBe(true);
    }
  });
});

describe('approvalBindsContent', () => {
  const skillMd = { digestLf: A, archive: null };
  it('a SKILL.md skill: bound by its LF digest', () => {
    expect(approvalBindsContent(approval(), skillMd)).toEqual({ binds: true });
    expect(approvalBindsContent(approval(), { digestLf: A.toUpperCase(), archive: null })).toEqual({ binds: true });
    expect(approvalBindsContent(approval(), { digestLf: B, archive: null })).toEqual({ binds: false, code: 'content-changed' });
  });
  it('an archive: the SKILL.md and the file set', () => {
    const a = approval({ archive: binding(F1) });
    expect(approvalBindsContent(a, { digestLf: A, archive: { filesDigest: F1 } })).toEqual({ binds: true });
    expect(approvalBindsContent(a, { digestLf: A, archive: { filesDigest: F2 } })).toEqual({ binds: false, code: 'archive-files-changed' });
    expect(approvalBindsContent(a, { digestLf: B, archive: { filesDigest: F1 } })).toEqual({ binds: false, code: 'content-changed' });
    expect(approvalBindsContent(a, { digestLf: A, archive: { filesDigest: null } })).toEqual({ binds: false, code: 'approval-files-unbound' });
    expect(approvalBindsContent(a, skillMd)).toEqual({ binds: false, code: 'archive-files-changed' });
  });
  it('an archive approval of an older version binds no file, so it never binds an archive', () => {
    expect(approvalBindsContent(approval(), { digestLf: A, archive: { filesDigest: F1 } })).toEqual({ binds: false, code: 'approval-files-unbound' });
  });
  it('reads the content from a report and from stored bytes', () => {
    expect(contentOfSkill({ type: 'archive', actual: { raw: B, lf: A, matchedForm: 'raw' }, archive: { format: 'zip', entries: [], filesDigest: F1 } })).toEqual({
      digestLf: A,
      archive: { filesDigest: F1 },
    });
    expect(contentOfSkill({ type: 'archive', actual: { raw: B, lf: A, matchedForm: 'raw' }, archive: null })).toEqual({ digestLf: A, archive: { filesDigest: null } });
    expect(contentOfSkill({ type: 'skill-md', actual: null, archive: null })).toBeNull();
    const stored = { origin: 'https://o', url: 'https://o/s', digestLf: A, digestRaw: A, bytes: new Uint8Array(), storedAt: 1 };
    expect(contentOfStored(stored)).toEqual(skillMd);
    expect(contentOfStored({ ...stored, archive: { sha256: B, format: 'zip', entries: [] } })).toEqual({ digestLf: A, archive: { filesDigest: null } });
    expect(contentOfStored({ ...stored, archive: { sha256: B, format: 'zip', entries: [], filesDigest: F1 } })).toEqual({ digestLf: A, archive: { filesDigest: F1 } });
  });
});
