// Every approved skill of every origin, with whether it can be handed on now by the hand-off
// gate's rules (hand-off-gate.ts handOffVerdict): the popup's approved list and the context menus
// offer exactly what release() would let through.
import type { ApprovedSkillSummary } from '../messages';
import type { OriginReport } from '../types';
import type { ServiceContext } from './service-context';
import { handOffVerdict } from './hand-off-gate';
import { findSkill } from './handoff-rules';

export async function approvedList(ctx: ServiceContext): Promise<ApprovedSkillSummary[]> {
  const s = await ctx.store();
  const approvals = await s.listApprovals();
  const out: ApprovedSkillSummary[] = [];
  const reports = new Map<string, OriginReport | null>();
  const [policy, settings] = await Promise.all([ctx.policy(), ctx.settings.effective()]);
  for (const a of approvals) {
    if (!reports.has(a.origin)) reports.set(a.origin, await s.getReport(a.origin));
    const skill = findSkill(reports.get(a.origin) ?? null, a.url);
    const verdict = handOffVerdict(skill, a.origin, policy, settings);
    const usable = verdict.ok && verdict.approval.digestLf === a.digestLf;
    out.push({ origin: a.origin, url: a.url, name: skill?.name ?? a.name, status: skill?.status ?? null, usable, approvedAt: a.approvedAt });
  }
  return out.sort((x, y) => x.origin.localeCompare(y.origin) || x.name.localeCompare(y.name));
}
