// Approvals: approve and revoke a skill, read its bytes and its context, list what is
// approved, and hand a context to a chat tab.
import { approvalOf, canBind, changesSinceApproval } from '../../engine/approved-bytes';
import { managedKeyFor } from '../../trust/managed';
import type { ServiceContext } from '../context';
import { insertIntoChat } from '../hand-off';
import { approvalDecision, findSkill, refused, toSkillText } from '../handoff-rules';
import { approvedList, contextFor, currentBytes, reportFor } from '../skill-access';
import { fail, type Slice } from './types';

export function approvalHandlers(ctx: ServiceContext): Slice<'approvals'> {
  const { scheduler, clock } = ctx;
  return {
    'skillpin:approve': async (req, sender) => {
      const s = await ctx.store();
      const report = await reportFor(ctx, req.origin, sender);
      const policy = await ctx.policy();
      const decision = approvalDecision(findSkill(report, req.url), req, policy);
      if (!decision.ok) return refused(decision);
      const { skill, status } = decision;
      const stored = await currentBytes(s, req.origin, skill);
      if (!stored || !canBind(stored)) return fail('bytes-missing', 'The verified bytes are not stored; re-check the site.');
      // The approval binds these bytes: the SKILL.md and, for an archive, every other file (PRODUCT.md §9.2).
      const approval = approvalOf(stored, {
        keyFingerprint: status === 'verified-signed' ? (report.key.pinned?.fingerprint ?? null) : null,
        statusAtApproval: status,
        name: skill.name,
        approvedAt: clock.now(),
      });
      await s.approve(approval, stored, managedKeyFor(policy, req.origin)?.fingerprint ?? null);
      await scheduler.probe(req.origin, { force: false });
      return { ok: true };
    },
    'skillpin:revoke': async (req) => {
      await (await ctx.store()).revoke(req.origin, req.url);
      await scheduler.probe(req.origin, { force: false });
      return { ok: true };
    },
    'skillpin:skill-text': async (req) => {
      const s = await ctx.store();
      const skill = findSkill(await ctx.currentReport(req.origin), req.url);
      const currentRecord = skill ? await currentBytes(s, req.origin, skill) : await s.getLatestSkill(req.origin, req.url);
      const approval = await s.getApproval(req.origin, req.url);
      // The record of the approved version (for the diff only: a hand-off asks approvedBytes).
      const approvedRecord = approval ? await s.getSkill(req.origin, req.url, approval.digestLf, approval.archive?.filesDigest ?? '') : null;
      return { current: toSkillText(currentRecord), approved: toSkillText(approvedRecord), files: changesSinceApproval(approval, approvedRecord, currentRecord) };
    },
    'skillpin:skill-context': async (req, sender) => contextFor(ctx, req.origin, req.url, sender),
    'skillpin:approved-list': async () => approvedList(ctx),
    'skillpin:approvals-list': async () => (await ctx.store()).listApprovals(),
    'skillpin:insert': async (req, sender) => {
      const context = await contextFor(ctx, req.origin, req.url, sender);
      if (!context.ok) return { ok: false, method: 'none', message: context.message };
      const { chatSites } = await ctx.settings.effective();
      return insertIntoChat(ctx.platform, chatSites, { tabId: req.tabId, frameId: 0 }, context.context, req.chatOrigin);
    },
  };
}
