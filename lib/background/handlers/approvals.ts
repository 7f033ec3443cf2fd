// Approvals: approve and revoke a skill, read its bytes and its context, list what is
// approved, and hand a skill context to a chat tab.
import { approvalFor, approvalKeyFingerprint, approvedBytes, canBind, changesSinceApproval } from '../../probe/approved-bytes';
import { approvalReviewOf, reviewStored } from '../../probe/skill-review';
import { managedKeyFor } from '../../store/policy';
import { approvedList } from '../approved-list';
import type { WorkerState } from '../worker-state';
import { contextFor, insertSkill } from '../hand-off-routes';
import { approvalDecision, findSkill, toSkillText } from '../opt-in-rules';
import { currentBytes, reportFor } from '../skill-access';
import { t } from '../../i18n';
import { agentsSeeing } from '../../desktop/protocol/agents';
import { fail, withPolicy, type Slice } from './types';

export function approvalHandlers(worker: WorkerState): Slice<'approvals'> {
  const { probes, clock } = worker;
  return {
    // Nothing is approved under a policy that is not known (it may require signatures).
    'skillpin:approve': withPolicy(worker, async (req, sender, policy) => {
      // Approved in a private window: kept in memory with the private windows' results.
      const s = await worker.storeOf(await worker.isPrivate(req.origin, sender));
      const report = await reportFor(worker, req.origin, sender);
      const decision = approvalDecision(findSkill(report, req.url), req, policy);
      if (!decision.ok) return fail(decision.error, decision.message);
      const { skill, status } = decision;
      const stored = await currentBytes(s, req.origin, skill);
      if (!stored || !canBind(stored)) return fail('bytes-missing', t('err_bytes_missing'));
      // An Undo brings back the approval that was withdrawn, bound to the same key, or nothing.
      if (req.restore && req.restore.keyFingerprint !== approvalKeyFingerprint(report.key, status)) return fail('key-changed', t('err_restore_key_changed'));
      // The approval binds these bytes: the SKILL.md and, for an archive, every other file (PRODUCT.md §9.2).
      const approval = approvalFor(stored, report.key, { status, name: skill.name }, req.restore ? Math.min(req.restore.approvedAt, clock.now()) : clock.now());
      // What the approval showed of the review of these very bytes, and what the user confirmed of it
      // (PRODUCT.md §6.1); a confirmation the approval it replaces had for the same findings stands.
      const before = (await s.getApproval(req.origin, req.url))?.review;
      approval.review = approvalReviewOf(reviewStored(stored), req.confirmFindings, clock.now(), before);
      await s.approve(approval, stored, managedKeyFor(policy, req.origin)?.fingerprint ?? null);
      await probes.probe('after-approval', req.origin, { kind: 'request', sender });
      return { ok: true };
    }),
    'skillpin:confirm-findings': withPolicy(worker, async (req, sender, policy) => {
      const s = await worker.storeOf(await worker.isPrivate(req.origin, sender));
      const approval = await s.getApproval(req.origin, req.url);
      // Only the content the page showed: an approval that moved on meanwhile is not confirmed blind.
      if (!approval || approval.digestLf !== req.digestLf) return fail('digest-changed', t('err_confirm_changed'));
      const stored = await approvedBytes(s, approval);
      if (!stored) return fail('bytes-missing', t('err_bytes_missing'));
      const review = approvalReviewOf(reviewStored(stored), req.confirmFindings, clock.now(), approval.review);
      await s.approve({ ...approval, review }, stored, managedKeyFor(policy, req.origin)?.fingerprint ?? null);
      await probes.probe('after-approval', req.origin, { kind: 'request', sender });
      return { ok: true };
    }),
    'skillpin:revoke': async (req, sender) => {
      const priv = await worker.isPrivate(req.origin, sender);
      // Who loses it on this computer too, as the program's last answer said (desktop-sync.ts); the
      // program holds no private window's approval.
      const copies = priv ? null : await worker.desktop.copiesOf(req.origin, req.url);
      await (await worker.storeOf(priv)).revoke(req.origin, req.url);
      await probes.probe('after-approval', req.origin, { kind: 'request', sender });
      return copies === null ? { ok: true } : { ok: true, desktopAgents: agentsSeeing(copies) };
    },
    'skillpin:skill-text': async (req, sender) => {
      const priv = await worker.isPrivate(req.origin, sender);
      const s = await worker.storeOf(priv);
      const skill = findSkill(await worker.currentReport(req.origin, priv), req.url);
      const currentRecord = skill ? await currentBytes(s, req.origin, skill) : await s.getLatestSkill(req.origin, req.url);
      const approval = await s.getApproval(req.origin, req.url);
      // The record of the approved version (for the diff only: a hand-off asks approvedBytes).
      const approvedRecord = approval ? await s.getSkill(req.origin, req.url, approval.digestLf, approval.archive?.filesDigest ?? '') : null;
      return { current: toSkillText(currentRecord), approved: toSkillText(approvedRecord), files: changesSinceApproval(approval, approvedRecord, currentRecord) };
    },
    'skillpin:skill-context': async (req, sender) => contextFor(worker, req.origin, req.url, sender, { kind: 'clipboard' }),
    'skillpin:approved-list': async (req) => approvedList(worker, req),
    'skillpin:approvals-list': async () => (await worker.store()).listApprovals(),
    // From the popup and the side panel, which say what happened themselves: the chat page shows no message of its own.
    'skillpin:insert': async (req, sender) => insertSkill(worker, { origin: req.origin, url: req.url, frame: { tabId: req.tabId, frameId: 0 }, expectedOrigin: req.chatOrigin, quiet: true }, sender),
  };
}
