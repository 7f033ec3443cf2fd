// The rules of opt-in and hand-off (PRODUCT.md §4, §6), as pure functions over a report:
// when a skill may be approved and what the approval binds, and when an approved skill may
// be handed to an agent. The background service applies them; the popup's list of approved
// skills and every hand-off path read the same answer.
import type { Request, SkillText } from '../messages';
import { approvalBindsContent, contentOfSkill } from '../probe/status';
import { decodeUtf8 } from '../parse/decode';
import { isApprovable, type Approval, type OriginReport, type SkillReport, type SkillStatus } from '../types';
import type { ManagedPolicy } from '../store/policy';
import type { StoredSkill } from '../store/records';
import { t } from '../i18n';
import { statusWords } from '../i18n/status';

export interface Refusal {
  error: string;
  message: string;
}

/** A rule's answer: what it allows (`T`), or the refusal and why. */
export type Verdict<T> = ({ ok: true } & T) | ({ ok: false } & Refusal);

export const no = (error: string, message: string): { ok: false } & Refusal => ({ ok: false, error, message });

export function findSkill(report: OriginReport | null, url: string): SkillReport | null {
  return report?.skills.find((s) => s.url === url) ?? null;
}

/** What an organisation's policy adds to the rules (docs/policies.md): `requireSigned`, only verified-signed skills may be approved, and only they are handed on. */
export type PolicyRules = Pick<ManagedPolicy, 'requireSigned'>;

const NO_RULES: PolicyRules = { requireSigned: false };

/** `filesDigest`, for an archive: the digest of the file set the user saw (FORMATS.md §6.6). */
export type ApproveRequest = Pick<Request<'skillpin:approve'>, 'digestLf' | 'filesDigest' | 'confirmUnverified' | 'confirmCrossOrigin'>;

/**
 * Whether `skill` may be approved as the user saw it (`req.digestLf`), and with which status.
 * content-changed is decided only where the skill would otherwise verify (FORMATS.md §10),
 * so approving it after its diff is the re-approval PRODUCT.md §4 asks for.
 */
export function approvalDecision(skill: SkillReport | null, req: ApproveRequest, rules: PolicyRules = NO_RULES): Verdict<{ skill: SkillReport; url: string; status: SkillStatus }> {
  if (!skill || !skill.url) return no('unknown-skill', t('err_unknown_skill'));
  const reapproval = skill.status === 'content-changed';
  if (!isApprovable(skill.status) && !reapproval) return no('not-approvable', t('err_not_approvable', statusWords(skill.status)));
  if (!skill.actual || skill.actual.lf !== req.digestLf) return no('digest-changed', t('err_changed_while_looking'));
  // An archive is approved with the files the user was shown, not with whatever it holds by now.
  if (skill.type === 'archive' && (skill.archive?.filesDigest === undefined || req.filesDigest !== skill.archive.filesDigest)) {
    return no('digest-changed', t('err_archive_changed_while_looking'));
  }
  const status: SkillStatus = reapproval ? (skill.signature.state === 'valid' ? 'verified-signed' : skill.declared.length > 0 ? 'verified' : 'unverified') : skill.status;
  if (rules.requireSigned && status !== 'verified-signed') return no('policy-requires-signed', t('err_requires_signed', statusWords(status)));
  if (status === 'unverified' && !req.confirmUnverified) return no('needs-confirmation', t('err_confirm_unverified'));
  if (skill.crossOrigin && !req.confirmCrossOrigin) return no('needs-confirmation', t('err_confirm_cross', skill.artifactHost ?? '?'));
  return { ok: true, skill, url: skill.url, status };
}

/** Whether an approved skill may be handed on now: its approval and the block's signature state, or why not. */
export function handOff(skill: SkillReport | null, rules: PolicyRules = NO_RULES): Verdict<{ skill: SkillReport; approval: Approval; signatureState: 'verified-signed' | 'verified' | 'unverified' }> {
  if (!skill) return no('unknown-skill', t('err_not_listed_any_more'));
  const approval = skill.approval.approval;
  if (skill.approval.state !== 'approved' || !approval) return no('not-approved', t('err_not_approved'));
  if (!isApprovable(skill.status)) return no('not-usable', t('err_not_usable', statusWords(skill.status)));
  // The approval must bind what the skill holds now: its SKILL.md and, for an archive, every file.
  const content = contentOfSkill(skill);
  if (!content || !approvalBindsContent(approval, content).binds) return no('digest-changed', t('err_changed_since_approval'));
  // An approval made before the policy required signatures is not used while it does.
  if (rules.requireSigned && skill.status !== 'verified-signed') return no('policy-requires-signed', t('err_requires_signed', statusWords(skill.status)));
  const signatureState = skill.status === 'verified-signed' ? 'verified-signed' : skill.status === 'verified' ? 'verified' : 'unverified';
  return { ok: true, skill, approval, signatureState };
}

export function toSkillText(stored: StoredSkill | null): SkillText | null {
  if (!stored) return null;
  return { text: decodeUtf8(stored.bytes), digestLf: stored.digestLf, digestRaw: stored.digestRaw, size: stored.bytes.byteLength };
}
