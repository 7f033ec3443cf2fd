// Approving a skill and confirming what it can do (PRODUCT.md §6.1), for the popup and the side
// panel: Approve asks the one confirmation when the skill has findings that act or can act not
// confirmed by the approval it replaces (and the confirmations an unverified skill or one served by
// another host need); Confirm asks it for a skill already approved; a hand-off the gate refused for
// unconfirmed findings offers it. Cancel sends nothing.
import { useState } from 'preact/hooks';
import { findingsToConfirm } from '../../lib/review';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import type { Announce } from './Announcer';
import { ApproveDialog, type PendingConfirmation } from './ApproveDialog';
import { approvalNeeds } from './approve';
import type { Client } from './client';
import { confirmKeys, findingsToAsk } from './finding-words';

export interface ApprovalsOptions {
  client: Client;
  /** The site the page shows ('' in the side panel, which approves from a skill's review with its own). */
  origin: string;
  announce: Announce;
  /** Runs an action with the page busy; a failure is said. */
  run: (task: () => Promise<void>) => Promise<void>;
  /** After an approval or a confirmation, accepted or not. */
  afterChange: () => Promise<void>;
}

export function useApprovals({ client, origin, announce, run, afterChange }: ApprovalsOptions) {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);

  async function sendApprove(skill: SkillReport, confirmUnverified: boolean, confirmCrossOrigin: boolean) {
    const url = skill.url;
    const digestLf = skill.actual?.lf;
    if (!url || !digestLf) return;
    await run(async () => {
      // An archive is approved with the files the user was shown (the background refuses other ones).
      const filesDigest = skill.archive?.filesDigest;
      // What the skill can do, confirmed in the dialog just now or by the approval this one replaces.
      const keys = confirmKeys(skill.review);
      const res = await client.approve({
        origin,
        url,
        digestLf,
        ...(filesDigest ? { filesDigest } : {}),
        confirmUnverified,
        confirmCrossOrigin,
        ...(keys.length > 0 ? { confirmFindings: keys } : {}),
      });
      if (res.ok) announce(t('approved_ok', skill.name), 'success');
      else announce(t('approve_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
      await afterChange();
    });
  }

  /** Confirms what an approved skill can do: every finding that acts or can act, as the report shows them. */
  async function sendConfirm(skill: SkillReport, skillOrigin: string) {
    const approval = skill.approval.approval;
    const url = skill.url;
    if (!url || !approval) return;
    await run(async () => {
      const res = await client.confirmFindings({ origin: skillOrigin, url, digestLf: approval.digestLf, confirmFindings: confirmKeys(skill.review) });
      if (res.ok) announce(t('confirmed_ok', skill.name), 'success');
      else announce(t('confirm_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
      await afterChange();
    });
  }

  function approve(skill: SkillReport) {
    const needs = approvalNeeds(skill);
    const findings = findingsToAsk(skill);
    if (needs.unverified || needs.crossOrigin || findings.length > 0) setPending({ kind: 'approve', skill, origin, ...needs, findings });
    else void sendApprove(skill, false, false);
  }

  function confirm(skill: SkillReport) {
    const approval = skill.approval.approval;
    if (!approval || !skill.review) return;
    setPending({ kind: 'confirm', skill, origin: approval.origin, findings: findingsToConfirm(skill.review) });
  }

  /** The confirmation of a skill known by its site and URL (the library, a refused hand-off): its report is read first. */
  async function confirmAt(skillOrigin: string, url: string) {
    await run(async () => {
      const report = await client.report(skillOrigin);
      const skill = report?.skills.find((s) => s.url === url);
      if (skill?.approval.approval && skill.review && findingsToConfirm(skill.review).length > 0) confirm(skill);
    });
  }

  /** A hand-off the gate refused for findings not confirmed: its message offers the confirmation. */
  function refusedUnconfirmed(skillOrigin: string, url: string, message: string) {
    announce(message, 'error', { action: { label: t('needs_confirmation_button'), run: () => void confirmAt(skillOrigin, url) } });
  }

  const dialog = pending ? (
    <ApproveDialog
      pending={pending}
      onCancel={() => setPending(null)}
      onConfirm={() => {
        setPending(null);
        if (pending.kind === 'approve') void sendApprove(pending.skill, pending.unverified, pending.crossOrigin);
        else void sendConfirm(pending.skill, pending.origin);
      }}
    />
  ) : null;

  return { approve, confirm, confirmAt, refusedUnconfirmed, dialog };
}
