// The user's actions on a skill, in the popup and the side panel: approve (with the one
// confirmation of what it can do, and the extra confirmations), confirm what an approved skill can
// do, withdraw an approval (with Undo), copy the skill context, insert it into a chat
// tab, export for upload. Results go to the live region.
import { useEffect } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce, useBusy } from './Announcer';
import { useApprovals } from './use-approvals';
import { hostOf } from './format';
import { useSkillExport } from './use-export';
import { withdrawer } from './use-withdraw';
import { NAME_MAX, display } from '../../lib/render/display';
import { ExportButton } from './ExportControls';

import { approvalNeeds } from './approve';
import type { Client } from './client';
import type { WriteClipboard } from './clipboard';
import type { SaveFile } from './save-file';

/** What the actions need from the outside world: the popup's and the side panel's env both have it. */
export interface ActionsEnv {
  client: Client;
  clipboard: WriteClipboard;
  /** Saves a file the user downloads (an export for upload); absent: an anchor with a blob URL. */
  saveFile?: SaveFile;
}

export type SkillActions = ReturnType<typeof useSkillActions>;

/** `changes` grows with every change of trust state made anywhere: the recorded exports are read again. */
export function useSkillActions(env: ActionsEnv, origin: string, onChanged: () => Promise<void> | void, changes = 0) {
  const announce = useAnnounce();
  const { busy, run: runBusy } = useBusy();
  const run = (task: () => Promise<void>) => runBusy(task, 'action_failed');
  // After an approval, a confirmation (use-approvals.tsx), a withdrawal or its Undo, the page reads
  // what is stored again and the recorded exports too.
  const afterChange = async () => {
    await onChanged();
    exporter.reload();
  };
  const approvals = useApprovals({ client: env.client, origin, announce, run, afterChange });
  const exporter = useSkillExport(env.client, env.saveFile, approvals.refusedUnconfirmed);
  useEffect(() => {
    if (changes > 0) exporter.reload();
  }, [changes, exporter.reload]);

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
      onChanged: afterChange,
    });
    await run(() => withdrawOne(approval));
  }

  /** Copies the skill context to the clipboard. */
  async function copy(skillOrigin: string, url: string, name: string) {
    await run(async () => {
      const res = await env.client.skillContext(skillOrigin, url);
      if (!res.ok) {
        if (res.error === 'needs-confirmation') approvals.refusedUnconfirmed(skillOrigin, url, res.message);
        else announce(t('copy_failed', res.message), 'error');
        return;
      }
      const written = await env.clipboard(res.context);
      if (written) announce(t('copied_ok', res.name || name), 'success');
      else announce(t('copy_clipboard_denied'), 'error');
    });
  }

  /** Inserts into the chat tab `tabId`, which the popup showed as `chatOrigin`. */
  async function insert(tabId: number, chatOrigin: string, skillOrigin: string, url: string, name: string) {
    await run(async () => {
      const res = await env.client.insert(tabId, chatOrigin, skillOrigin, url);
      if (res.ok && res.method !== 'clipboard' && res.method !== 'none') announce(t('inserted_ok', display(name, NAME_MAX), hostOf(chatOrigin)), 'success');
      else if (res.method === 'clipboard') announce(t('inserted_clipboard', res.message), 'info');
      else announce(t('insert_failed', res.message), 'error');
    });
  }

  // confirm: the confirmation of what an approved skill can do (findings a newer rule set found, an
  // imported approval); confirmAt: the same for a skill known by its site and URL (its report is read first).
  return { approve: approvals.approve, confirm: approvals.confirm, confirmAt: approvals.confirmAt, withdraw, copy, insert, exporter, busy, dialog: approvals.dialog };
}

type HandOff = { actions: SkillActions; origin: string; url: string; name: string };
type InsertTo = { tabId: number; origin: string; title?: string };

/** Insert into chat, into the chat tab `to` (named in the tooltip when its title is known). */
export function InsertButton({ actions, to, origin, url, name }: HandOff & { to: InsertTo }) {
  return (
    <button
      type="button"
      class="btn-primary"
      disabled={actions.busy}
      title={to.title === undefined ? undefined : t('insert_into_title', to.title)}
      onClick={() => void actions.insert(to.tabId, to.origin, origin, url, name)}
      data-action="insert"
    >
      {t('insert_into_chat')}
    </button>
  );
}

export function CopyContextButton({ actions, origin, url, name, primary = false }: HandOff & { primary?: boolean }) {
  return (
    <button type="button" class={primary ? 'btn-primary' : undefined} disabled={actions.busy} onClick={() => void actions.copy(origin, url, name)} data-action="copy">
      {t('copy_context')}
    </button>
  );
}

/** Insert into chat (into `to`, when a chat tab is known), Copy skill context and Export for upload, side by side. */
export function HandOffButtons({ to, ...skill }: HandOff & { to: InsertTo | null }) {
  return (
    <>
      {to && <InsertButton to={to} {...skill} />}
      <CopyContextButton {...skill} />
      <ExportButton exporter={skill.actions.exporter} origin={skill.origin} url={skill.url} name={skill.name} disabled={skill.actions.busy} />
    </>
  );
}

/** Confirm: asks the confirmation of what an approved skill can do; its accessible label names the skill as `name`. */
export function ConfirmFindingsButton({ busy, name, primary = false, onClick }: { busy: boolean; name: string; primary?: boolean; onClick: () => void }) {
  return (
    <button type="button" class={primary ? 'btn-primary' : undefined} disabled={busy} onClick={onClick} aria-label={t('needs_confirmation_for', name)} data-action="confirm-findings">
      {t('needs_confirmation_button')}
    </button>
  );
}
