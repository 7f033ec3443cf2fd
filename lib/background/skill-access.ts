// Reading what the store holds about an origin's skills for a request: the report (probing the
// origin first when it was never probed, under the same rules as a re-check), the verified
// bytes, the skill-context block, and the list of approved skills.
import { buildSkillContext } from '../context/skill-context';
import { approvedBytes } from '../engine/approved-bytes';
import type { ApprovedSkillSummary, ContextResult } from '../messages';
import { skippedReport } from '../report/skipped-report';
import { shouldProbe } from '../scheduler/should-probe';
import type { TrustStore } from '../trust/store-api';
import type { StoredSkill } from '../trust/records';
import type { OriginReport, SkillReport } from '../types';
import type { ServiceContext } from './context';
import { findSkill, handOff } from './handoff-rules';
import type { SenderLike } from './sender';

/**
 * The report of an origin not probed yet, for a request from a Skillpin page (approve, trust a
 * key, a context): the same rules as the popup's re-check (pause, private windows, the lists),
 * so no such request can make the first request to an origin open only in a private window.
 */
export async function freshReport(ctx: ServiceContext, origin: string, sender: SenderLike | null): Promise<OriginReport> {
  const settings = await ctx.settings.effective();
  const incognito = settings.probeInPrivate || sender === null ? false : await ctx.privateRequest(origin, undefined, sender);
  const decision = shouldProbe(origin + '/', settings, { incognito });
  if (!decision.probe) return skippedReport(origin, decision.reason, ctx.clock.now());
  return ctx.scheduler.probe(origin, { force: false });
}

/** The stored report, or a fresh one when there is none. */
export async function reportFor(ctx: ServiceContext, origin: string, sender: SenderLike | null): Promise<OriginReport> {
  return (await ctx.currentReport(origin)) ?? (await freshReport(ctx, origin, sender));
}

/** The stored bytes a skill has now (those its digest check passed; for an archive, its current files), or null. */
export async function currentBytes(s: TrustStore, origin: string, skill: SkillReport): Promise<StoredSkill | null> {
  if (!skill.url || !skill.actual) return null;
  return s.getSkill(origin, skill.url, skill.actual.lf, skill.archive?.filesDigest ?? '');
}

/** The context block of an approved skill whose current bytes are the approved bytes. */
export async function contextFor(ctx: ServiceContext, origin: string, url: string, sender: SenderLike | null): Promise<ContextResult> {
  const s = await ctx.store();
  const report = await reportFor(ctx, origin, sender);
  const allowed = handOff(findSkill(report, url), await ctx.policy());
  if (!allowed.ok) return allowed;
  const { skill, approval } = allowed;
  // Only the bytes the approval binds leave the extension (an archive's files included).
  const stored = await approvedBytes(s, approval);
  if (!stored) return { ok: false, error: 'bytes-missing', message: 'The verified bytes are not stored; re-check the site.' };
  const context = buildSkillContext({
    origin,
    name: skill.name,
    url,
    digestLf: stored.digestLf,
    digestRaw: stored.digestRaw,
    signatureState: allowed.signatureState,
    keyFingerprint: approval.keyFingerprint,
    bytes: stored.bytes,
  });
  return { ok: true, context, name: skill.name };
}

/** Every approved skill of every origin, with whether it can be handed on now. */
export async function approvedList(ctx: ServiceContext): Promise<ApprovedSkillSummary[]> {
  const s = await ctx.store();
  const approvals = await s.listApprovals();
  const out: ApprovedSkillSummary[] = [];
  const reports = new Map<string, OriginReport | null>();
  const policy = await ctx.policy();
  for (const a of approvals) {
    if (!reports.has(a.origin)) reports.set(a.origin, await s.getReport(a.origin));
    const skill = findSkill(reports.get(a.origin) ?? null, a.url);
    const allowed = handOff(skill, policy);
    const usable = allowed.ok && allowed.approval.digestLf === a.digestLf;
    out.push({ origin: a.origin, url: a.url, name: skill?.name ?? a.name, status: skill?.status ?? null, usable, approvedAt: a.approvedAt });
  }
  return out.sort((x, y) => x.origin.localeCompare(y.origin) || x.name.localeCompare(y.name));
}
