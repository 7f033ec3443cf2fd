// One status per skill (PRODUCT.md §4) in the order of FORMATS.md §10, and the state of the
// skill's approval (PRODUCT.md §6, §9.2, §9.3). Pure: every fact is gathered before the call.
// approvalBindsContent says whether an approval binds a skill's content as it is now (the root
// SKILL.md and, for an archive, every other file): the status here and every hand-off ask it.
import type { StoredSkill } from '../store/records';
import type { Approval, ApprovalReport, KeyState, SignatureState, SkillReport, SkillStatus, SnapshotReport } from '../types';
import type { DigestCheck } from '../verify/digest';
import type { StatusDecision } from '../report/skill-outcome';

export type Failure<S extends SkillStatus> = { status: S; code: string; message: string };

export interface StatusFacts {
  /** FORMATS.md §10 items 1–2: refused before any request. */
  refusal: Failure<'invalid' | 'unsupported'> | null;
  /** Item 3: the declared digests differ. */
  disagree: boolean;
  /** Item 4: null when bytes were obtained (fetched or stored). A blocked redirect is `invalid` here. */
  obtainFailure: Failure<'fetch-failed' | 'too-large' | 'invalid'> | null;
  /** Item 5: the digest check of the obtained bytes (null when nothing was obtained). */
  digest: DigestCheck | null;
  /** Item 6: archive format or unpack failure, checked after the digest. */
  archiveFailure: Failure<'invalid' | 'too-large' | 'unsupported'> | null;
  /** Item 7: the origin's key state on this probe. */
  keyState: KeyState;
  /** The fingerprint of the key the administrator pinned for the origin, when a policy pins it (docs/policies.md). */
  policyPin?: string | null;
  /** A pinned origin whose key documents were transiently unreachable. */
  keyUnavailable: boolean;
  /** Item 8: the entry signature under the origin key. */
  signature: SignatureState;
  /** Why the signature is invalid, when it is (a stable code and message). */
  signatureFailure: { code: string; message: string } | null;
  /** Item 8 (PRODUCT.md §9.4): a user-configured snapshot-v1 signature. */
  snapshot: SnapshotReport | null;
  /** Items 7 and 9: the user's approval for this (origin, url), if any. */
  approval: Approval | null;
  /**
   * Item 9: for an archive, the digest of its file set as obtained (FORMATS.md §6.6; null when it
   * is not known); null for a SKILL.md skill.
   */
  archiveFiles: { filesDigest: string | null } | null;
  /** The fingerprint an approval made now would bind: the pinned key when the signature verified, else null. */
  currentFingerprint: string | null;
}

function suspended(approval: Approval | null, because: SkillStatus, code: string): ApprovalReport {
  return approval ? { state: 'suspended', approval, suspendedBecause: because, code } : { state: 'none', approval: null, suspendedBecause: null };
}

function decide(status: SkillStatus, code: string, message: string, approval: Approval | null): StatusDecision {
  return { status, code, message, approval: suspended(approval, status, code) };
}

/** A skill's content as an approval binds it (PRODUCT.md §9.2, FORMATS.md §6.6). */
export interface BoundContent {
  /** SHA-256 of the LF-normalized root SKILL.md. */
  digestLf: string;
  /** null for a SKILL.md skill; for an archive, the digest of its file set (null when it is not known). */
  archive: { filesDigest: string | null } | null;
}

export type BindingCheck =
  | { binds: true }
  | {
      binds: false;
      /**
       * `content-changed`: the SKILL.md differs; `archive-files-changed`: another file was added,
       * removed or changed; `approval-files-unbound`: the approval binds no files (made by an older
       * version) or the files are not known, so it cannot be said to bind them.
       */
      code: 'content-changed' | 'archive-files-changed' | 'approval-files-unbound';
    };

/**
 * Whether `approval` binds `content`: the same LF digest of the root SKILL.md and, for an archive,
 * the same file set. The one answer for the status (decideStatus) and for every hand-off: bytes
 * leave the extension only when the approval binds them.
 */
export function approvalBindsContent(approval: Approval, content: BoundContent): BindingCheck {
  if (approval.digestLf.toLowerCase() !== content.digestLf.toLowerCase()) return { binds: false, code: 'content-changed' };
  if (content.archive === null) return approval.archive ? { binds: false, code: 'archive-files-changed' } : { binds: true };
  if (!approval.archive || content.archive.filesDigest === null) return { binds: false, code: 'approval-files-unbound' };
  if (approval.archive.filesDigest.toLowerCase() !== content.archive.filesDigest.toLowerCase()) return { binds: false, code: 'archive-files-changed' };
  return { binds: true };
}

/** The content a report says a skill has now, or null when no bytes were obtained. */
export function contentOfSkill(skill: Pick<SkillReport, 'type' | 'actual' | 'archive'>): BoundContent | null {
  if (!skill.actual) return null;
  return { digestLf: skill.actual.lf, archive: skill.type === 'archive' ? { filesDigest: skill.archive?.filesDigest ?? null } : null };
}

/** The content of stored verified bytes: an archive record without a file-set digest was stored by an older version. */
export function contentOfStored(stored: StoredSkill): BoundContent {
  return { digestLf: stored.digestLf, archive: stored.archive ? { filesDigest: stored.archive.filesDigest ?? null } : null };
}

const CHANGED_MESSAGE: Record<'content-changed' | 'archive-files-changed', string> = {
  'content-changed': 'The skill changed since it was approved; review the difference and approve again.',
  'archive-files-changed': "The archive's files changed since it was approved (its SKILL.md did not); review the difference and approve again.",
};

const KEY_STATE_FAILURE: Partial<Record<KeyState, { code: string; message: string }>> = {
  changed: { code: 'key-changed', message: 'The origin offers a different key than the one pinned for it.' },
  conflict: { code: 'key-conflict', message: 'signing_key and signing-key.pub name different keys.' },
  'stopped-signing': { code: 'key-stopped-signing', message: 'The origin is pinned but no longer offers a usable signing key.' },
  revoked: { code: 'key-revoked', message: 'The origin offers a key you revoked for it; nothing it signs is accepted.' },
};

/** A key failure against the administrator's pin names that key: the user cannot trust another one. */
function policyKeyMessage(f: StatusFacts): string | null {
  if (!f.policyPin) return null;
  if (f.keyState === 'changed') return `The origin offers a different key than the one your administrator pinned for it (${f.policyPin}).`;
  if (f.keyState === 'stopped-signing') return `Your administrator pinned ${f.policyPin} for this origin, but it no longer offers a usable signing key.`;
  return null;
}

/** FORMATS.md §10: the first item that applies wins. */
export function decideStatus(f: StatusFacts): StatusDecision {
  const a = f.approval;
  // 1–2. Refused before any request.
  if (f.refusal) return decide(f.refusal.status, f.refusal.code, f.refusal.message, a);
  // 3. Declared digests disagree.
  if (f.disagree) {
    return decide('sources-disagree', 'sources-disagree', 'The discovery documents declare different digests for this artifact.', a);
  }
  // 4. Not obtained.
  if (f.obtainFailure) return decide(f.obtainFailure.status, f.obtainFailure.code, f.obtainFailure.message, a);
  if (!f.digest) return decide('fetch-failed', 'fetch-transient', 'The artifact bytes are not available.', a);
  // 5. Digest.
  if (f.digest.mismatch) {
    return decide('digest-mismatch', 'digest-mismatch', 'The bytes match no declared digest (raw or lf-normalized).', a);
  }
  // 6. Archive.
  if (f.archiveFailure) return decide(f.archiveFailure.status, f.archiveFailure.code, f.archiveFailure.message, a);
  // 7. Key state.
  if (f.keyUnavailable) {
    return decide('fetch-failed', 'key-unavailable', 'The pinned origin key could not be checked now; retry later.', a);
  }
  const keyFailure = KEY_STATE_FAILURE[f.keyState];
  if (keyFailure) return decide('key-changed', keyFailure.code, policyKeyMessage(f) ?? keyFailure.message, a);
  if (a && a.keyFingerprint !== null) {
    if (f.signature === 'missing' || f.signature === 'not-signing') {
      return decide('key-changed', 'key-downgrade', 'This skill was approved while signed and is no longer signed.', a);
    }
    if (f.signature === 'valid' && f.currentFingerprint !== a.keyFingerprint) {
      return decide('key-changed', 'key-changed', 'This skill was approved under another key.', a);
    }
  }
  // 8. Signatures.
  if (f.signature === 'invalid') {
    const why = f.signatureFailure ?? { code: 'bad-signature', message: 'The signature does not verify under the origin key.' };
    return decide('bad-signature', why.code, why.message, a);
  }
  if (f.snapshot && f.snapshot.state === 'failed') {
    return decide('bad-signature', 'snapshot-failed', `The configured snapshot-v1 signature fails: ${f.snapshot.message}`, a);
  }
  // 9. Content changed under the same key: the SKILL.md, or for an archive any other file.
  const binding = a ? approvalBindsContent(a, { digestLf: f.digest.lfHex, archive: f.archiveFiles }) : null;
  if (a && binding && !binding.binds && binding.code !== 'approval-files-unbound') {
    return decide('content-changed', binding.code, CHANGED_MESSAGE[binding.code], a);
  }
  // 10. Verified / unverified.
  const base = baseStatus(f);
  let approval: ApprovalReport;
  if (!a) approval = { state: 'none', approval: null, suspendedBecause: null };
  else if (binding && !binding.binds) {
    // An archive approved by an older version bound its SKILL.md only: nothing changed, but the
    // approval cannot vouch for the other files until the user approves them (PRODUCT.md §9.2).
    approval = suspended(a, 'content-changed', 'approval-files-unbound');
  } else if (a.keyFingerprint === null && f.currentFingerprint !== null) {
    // Approved unsigned, now signed: the binding (digest, key) changed, so it must be renewed.
    approval = suspended(a, 'key-changed', 'key-changed');
  } else approval = { state: 'approved', approval: a, suspendedBecause: null };
  return { ...base, approval };
}

function baseStatus(f: StatusFacts): Omit<StatusDecision, 'approval'> {
  const digest = f.digest as DigestCheck;
  if (digest.undeclared) {
    return { status: 'unverified', code: 'unverified-no-digest', message: 'No digest was declared; check the content before approving.' };
  }
  if (f.signature === 'valid') {
    return { status: 'verified-signed', code: 'verified-signed', message: `Digest matches (${digest.matchedForm ?? 'raw'}) and the signature verifies under the pinned key.` };
  }
  if (f.signature === 'missing') {
    return { status: 'verified', code: 'verified-unsigned-entry', message: 'Digest matches, but this entry is not signed although the origin signs.' };
  }
  return { status: 'verified', code: 'verified', message: `Digest matches (${digest.matchedForm ?? 'raw'}); the origin does not sign.` };
}
