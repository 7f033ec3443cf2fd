// Every approved skill of every origin, with whether it can be handed on now by the hand-off
// gate's rules (hand-off-gate.ts handOffVerdict): the popup's approved list, the side panel's
// library and the context menus offer exactly what release() would let through. Each entry also
// says what the library shows: the description, when its site was last verified, the size and
// token estimate of the block Insert and Copy hand on (the report's), and what needs the user.
//
// Sorted by origin, then by the name the approval recorded, then by URL: an order the approvals
// alone decide, so that a page of the list (offset, limit) reads the reports of its own origins only.
import { withContextHeader } from '../report/context-header';
import { isExportOutOfDate, type ExportRecord } from '../export/record';
import type { ApprovedSkillSummary, LibraryAttention, Request } from '../messages';
import type { ManagedPolicy } from '../store/policy';
import type { Approval, OriginReport, Settings, SkillReport } from '../types';
import type { WorkerState } from './worker-state';
import { handOffVerdict } from './hand-off-gate';
import { findSkill } from './opt-in-rules';
import { readExportRecords } from './skill-export';
import { findingsToConfirm, unconfirmed } from '../review';

export type ListPage = Omit<Request<'skillpin:approved-list'>, 'type'>;

function byListOrder(x: Approval, y: Approval): number {
  return x.origin.localeCompare(y.origin) || x.name.localeCompare(y.name) || (x.url < y.url ? -1 : x.url > y.url ? 1 : 0);
}

/**
 * Whether the report's review of the approved content finds what acts or can act that the approval
 * did not confirm (a newer rule set found more, an approval imported from a backup). The hand-off
 * gate judges the approved bytes themselves; this is what the library says about it.
 */
function unconfirmedFindings(a: Approval, skill: SkillReport | null): boolean {
  if (!skill?.review || skill.actual?.lf !== a.digestLf) return false;
  return unconfirmed(findingsToConfirm(skill.review), a.review?.confirmed).length > 0;
}

/** What needs the user before the skill can be used again, or what is out of date while it can. */
function attentionOf(a: Approval, skill: SkillReport | null, report: OriginReport | null, usable: boolean, exported: ExportRecord | undefined): LibraryAttention | null {
  if (usable && unconfirmedFindings(a, skill)) return 'needs-confirmation';
  if (usable) return exported !== undefined && isExportOutOfDate(exported, skill) ? 'export-outdated' : null;
  if (skill?.status === 'content-changed') return 'content-changed';
  if (skill?.status === 'key-changed') return report?.key.state === 'revoked' ? 'key-revoked' : 'key-changed';
  if (skill?.approval.code === 'approval-files-unbound') return 'review-files';
  return 'unusable';
}

function summaryOf(a: Approval, report: OriginReport | null, policy: ManagedPolicy | null, settings: Settings, exports: ReadonlyMap<string, ExportRecord>): ApprovedSkillSummary {
  const found = findSkill(report, a.url);
  // The sizes of what Copy and Insert hand on, with the header the settings choose.
  const skill = found ? withContextHeader(found, settings.shortHeader) : found;
  const verdict = handOffVerdict(skill, a.origin, policy, settings);
  const usable = verdict.ok && verdict.approval.digestLf === a.digestLf;
  return {
    origin: a.origin,
    url: a.url,
    name: skill?.name ?? a.name,
    status: skill?.status ?? null,
    usable,
    approvedAt: a.approvedAt,
    description: skill?.description ?? null,
    verifiedAt: report?.state === 'done' ? report.finishedAt : null,
    size: skill?.contextSize ?? null,
    tokens: skill?.tokens ?? null,
    attention: attentionOf(a, skill, report, usable, exports.get(`${a.origin} ${a.url}`)),
    refusal: usable ? null : verdict.ok ? 'digest-changed' : verdict.error,
  };
}

/** The approved skills in list order, or the page `offset` … `offset + limit` of them. */
export async function approvedList(worker: WorkerState, page: ListPage = {}): Promise<ApprovedSkillSummary[]> {
  const s = await worker.store();
  const all = (await s.listApprovals()).sort(byListOrder);
  const start = page.offset ?? 0;
  const approvals = all.slice(start, page.limit === undefined ? undefined : start + page.limit);
  const [policy, settings, records] = await Promise.all([worker.policy(), worker.settings.effective(), readExportRecords(worker.platform)]);
  const exports = new Map(records.map((r) => [`${r.origin} ${r.url}`, r] as const));
  const reports = new Map<string, OriginReport | null>();
  const out: ApprovedSkillSummary[] = [];
  for (const a of approvals) {
    if (!reports.has(a.origin)) reports.set(a.origin, await s.getReport(a.origin));
    out.push(summaryOf(a, reports.get(a.origin) ?? null, policy, settings, exports));
  }
  return out;
}
