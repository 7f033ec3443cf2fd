// The user's actions on a skill, in the popup and the side panel: approve (with the one
// confirmation of what it can do, and the extra confirmations), confirm what an approved skill can
// do, withdraw an approval (with Undo), copy the skill context, insert it into a chat
// tab, export for upload. Results go to the live region.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from './Announcer';
import { ApproveDialog, type PendingConfirmation } from './ApproveDialog';
import { confirmKeys, findingsToAsk } from './finding-words';
import { findingsToConfirm } from '../../lib/review';
import { errorText } from './format';
import { useSkillExport, type SkillExporter } from './use-export';
import { withdrawer } from './use-withdraw';
import { NAME_MAX, display } from '../../lib/text/display';

import { approvalNeeds } from './approve';
import type { Client } from './client';
import type { WriteClipboard } from './clipboard';
import type { SaveFile } from './save-file';

/** The chat named by its host ("chatgpt.com"), as the user sees it in the address bar. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** What the actions need from the outside world: the popup's and the side panel's env both have it. */
export interface ActionsEnv {
  client: Client;
  clipboard: WriteClipboard;
  /** Saves a file the user downloads (an export for upload); absent: an anchor with a blob URL. */
  saveFile?: SaveFile;
  /** The hand-off path Insert into chat takes; absent: the popup's (skillpin:insert). The side panel has its own. */
  insert?: Client['insert'];
}

export interface SkillActions {
  approve(skill: SkillReport): void;
  /** Opens the confirmation of what an approved skill can do (findings a newer rule set found, an imported approval). */
  confirm(skill: SkillReport): void;
  /** The same, for a skill known by its site and URL: its report is read first. */
  confirmAt(origin: string, url: string): Promise<void>;
  /** Withdraws the approval of the skill; its message offers Undo. */
  withdraw(skill: SkillReport): Promise<void>;
  copy(origin: string, url: string, name: string): Promise<void>;
  /** Inserts into the chat tab `tabId`, which the popup showed as `chatOrigin`. */
  insert(tabId: number, chatOrigin: string, origin: string, url: string, name: string): Promise<void>;
  /** Export for upload (issue 9) and the recorded exports. */
  exporter: SkillExporter;
  busy: boolean;
  dialog: JSX.Element | null;
}

/** `changes` grows with every change of trust state made anywhere: the recorded exports are read again. */
export function useSkillActions(env: ActionsEnv, origin: string, onChanged: () => Promise<void> | void, changes = 0): SkillActions {
  const announce = useAnnounce();
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const exporter = useSkillExport(env.client, announce, env.saveFile, (o, u, message) => refusedUnconfirmed(o, u, message));
  const { reload: reloadExports } = exporter;
  useEffect(() => {
    if (changes > 0) reloadExports();
  }, [changes, reloadExports]);

  async function run(task: () => Promise<void>) {
    setBusy(true);
    try {
      await task();
    } catch (err) {
      announce(t('action_failed', errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  async function sendApprove(skill: SkillReport, confirmUnverified: boolean, confirmCrossOrigin: boolean) {
    const url = skill.url;
    const digestLf = skill.actual?.lf;
    if (!url || !digestLf) return;
    await run(async () => {
      // An archive is approved with the files the user was shown (the background refuses other ones).
      const filesDigest = skill.archive?.filesDigest;
      // What the skill can do, confirmed in the dialog just now or by the approval this one replaces.
      const keys = confirmKeys(skill.review);
      const res = await env.client.approve({
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
      await onChanged();
      exporter.reload();
    });
  }

  /** Confirms what an approved skill can do: every finding that acts or can act, as the report shows them. */
  async function sendConfirm(skill: SkillReport, skillOrigin: string) {
    const approval = skill.approval.approval;
    if (!skill.url || !approval) return;
    await run(async () => {
      const res = await env.client.confirmFindings({ origin: skillOrigin, url: skill.url ?? '', digestLf: approval.digestLf, confirmFindings: confirmKeys(skill.review) });
      if (res.ok) announce(t('confirmed_ok', skill.name), 'success');
      else announce(t('confirm_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
      await onChanged();
      exporter.reload();
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
      const report = await env.client.report(skillOrigin);
      const skill = report?.skills.find((s) => s.url === url);
      if (skill?.approval.approval && skill.review && findingsToConfirm(skill.review).length > 0) confirm(skill);
    });
  }

  /** A hand-off the gate refused for findings not confirmed: its message offers the confirmation. */
  function refusedUnconfirmed(skillOrigin: string, url: string, message: string) {
    announce(message, 'error', { action: { label: t('needs_confirmation_button'), run: () => void confirmAt(skillOrigin, url) } });
  }

  /** Withdraws the skill's approval (approved or suspended); the message offers Undo. */
  async function withdraw(skill: SkillReport) {
    const approval = skill.approval.approval;
    if (!skill.url || !approval) return;
    const needs = approvalNeeds(skill);
    const withdrawOne = withdrawer({
      client: env.client,
      announce,
      exported: (o, u) => exporter.exportOf(o, u) !== null,
      // Undo confirms again what approving it needed, judged on the skill as the user sees it now.
      confirms: (a) => ({ unverified: needs.unverified || a.statusAtApproval === 'unverified', crossOrigin: skill.crossOrigin }),
      onChanged: async () => {
        await onChanged();
        exporter.reload();
      },
    });
    await run(() => withdrawOne(approval));
  }

  async function copy(skillOrigin: string, url: string, name: string) {
    await run(async () => {
      const res = await env.client.skillContext(skillOrigin, url);
      if (!res.ok && res.error === 'needs-confirmation') {
        refusedUnconfirmed(skillOrigin, url, res.message);
        return;
      }
      if (!res.ok) {
        announce(t('copy_failed', res.message), 'error');
        return;
      }
      const written = await env.clipboard(res.context);
      if (written) announce(t('copied_ok', res.name || name), 'success');
      else announce(t('copy_clipboard_denied'), 'error');
    });
  }

  async function insert(tabId: number, chatOrigin: string, skillOrigin: string, url: string, name: string) {
    await run(async () => {
      const res = await (env.insert ?? env.client.insert)(tabId, chatOrigin, skillOrigin, url);
      if (res.ok && res.method !== 'clipboard' && res.method !== 'none') announce(t('inserted_ok', display(name, NAME_MAX), hostOf(chatOrigin)), 'success');
      else if (res.method === 'clipboard') announce(t('inserted_clipboard', res.message), 'info');
      else announce(t('insert_failed', res.message), 'error');
    });
  }

  const dialog = pending ? (
    <ApproveDialog
      pending={pending}
      onCancel={() => setPending(null)}
      onConfirm={() => {
        const p = pending;
        setPending(null);
        if (p.kind === 'approve') void sendApprove(p.skill, p.unverified, p.crossOrigin);
        else void sendConfirm(p.skill, p.origin);
      }}
    />
  ) : null;

  return { approve, confirm, confirmAt, withdraw, copy, insert, exporter, busy, dialog };
}
