// What approving a skill needs. The status always comes from the report.
import { isApprovable, type SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { statusLabel } from './status';

export type ApproveCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether the Approve action is available. A `content-changed` skill, and an archive whose approval
 * binds no files (approval-files-unbound), can be approved again only from the details view where
 * the changes or the files are shown (`reviewed`).
 */
export function approveCheck(skill: SkillReport, reviewed = false, requireSigned = false): ApproveCheck {
  if (skill.status === 'content-changed') {
    if (!reviewed) return { ok: false, reason: t('approve_review_first') };
  } else if (skill.status === 'key-changed') {
    return { ok: false, reason: t('approve_trust_key_first') };
  } else if (!isApprovable(skill.status)) {
    return { ok: false, reason: t('approve_refused', statusLabel(skill.status)) };
  }
  // An archive approved by an older version: approving again binds its files, so they are shown first.
  if (skill.approval.code === 'approval-files-unbound' && !reviewed) return { ok: false, reason: t('approve_review_files_first') };
  if (!skill.url || !skill.actual) return { ok: false, reason: t('approve_no_content') };
  // The organisation's "only verified-signed" policy: a re-approval binds verified-signed only
  // when the signature verifies (lib/background/opt-in-rules.ts decides the same way).
  const signed = skill.status === 'verified-signed' || (skill.status === 'content-changed' && skill.signature.state === 'valid');
  if (requireSigned && !signed) return { ok: false, reason: t('policy_approve_signed_only', statusLabel(skill.status)) };
  return { ok: true };
}

/** Which extra confirmations an approval needs. */
export function approvalNeeds(skill: SkillReport): { unverified: boolean; crossOrigin: boolean } {
  const unverified = skill.status === 'unverified' || (skill.status === 'content-changed' && skill.declared.length === 0);
  return { unverified, crossOrigin: skill.crossOrigin };
}
