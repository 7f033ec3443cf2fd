// "Withdraw approval" from any page (the popup's cards and details, the options page's approvals):
// the approval goes at once, and the message that says so offers Undo, which brings back exactly
// the approval withdrawn (the same digest, the same key, the same date) or, when the skill's content
// or key changed meanwhile, says so and restores nothing. A skill exported for upload keeps its copy
// in the agent it was uploaded to: the message says that too, as it names the desktop agents that
// lose the skill with it.
import type { Approval } from '../../lib/types';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { urlOf } from '../../lib/origin';
import type { Announce } from './Announcer';
import type { Client } from './client';
import { errorText } from './format';
import { desktopAgentName } from './agent-names';

export interface WithdrawOptions {
  client: Client;
  announce: Announce;
  /** Whether the skill was exported for upload (its uploaded copy stays in the agent). */
  exported: (origin: string, url: string) => boolean;
  /** After a withdrawal or an Undo, accepted or not: the page reads what is stored again. */
  onChanged: () => Promise<void> | void;
  /**
   * What an Undo confirms again, as approving it first did: an unverified skill, one served by
   * another host. Default: as the approval was made (its status then, the host of its URL).
   */
  confirms?: (approval: Approval) => { unverified: boolean; crossOrigin: boolean };
}

/** As the approval was made: its status then, and whether its URL is on another host than its site (one that does not parse counts as another). */
const asApproved = (a: Approval) => ({ unverified: a.statusAtApproval === 'unverified', crossOrigin: urlOf(a.url)?.origin !== a.origin });

/** Why an Undo restored nothing, in words. */
function undoRefusal(error: string | undefined, message: string | undefined, name: string): string {
  if (error === 'digest-changed') return t('undo_content_changed', name);
  if (error === 'key-changed') return t('undo_key_changed', name);
  return t('undo_failed', name, message ?? error ?? t('error_unknown'));
}

export function withdrawer({ client, announce, exported, onChanged, confirms = asApproved }: WithdrawOptions) {
  /** Undo: `name` is the skill's name as the withdrawal said it. */
  async function restore(a: Approval, name: string): Promise<void> {
    try {
      // The confirmations were given when the skill was first approved; the background still
      // refuses when the content or the key is not the one withdrawn.
      const confirmed = confirms(a);
      const res = await client.approve({
        origin: a.origin,
        url: a.url,
        digestLf: a.digestLf,
        confirmUnverified: confirmed.unverified,
        confirmCrossOrigin: confirmed.crossOrigin,
        // What the withdrawn approval confirmed of the skill's findings comes back with it.
        ...(a.review && a.review.confirmed.length > 0 ? { confirmFindings: a.review.confirmed } : {}),
        restore: { keyFingerprint: a.keyFingerprint, approvedAt: a.approvedAt },
      });
      if (res.ok) announce(t('undo_done', name), 'success');
      else announce(undoRefusal(res.error, res.message, name), 'error');
    } catch (err) {
      announce(undoRefusal(undefined, errorText(err), name), 'error');
    }
    await onChanged();
  }

  return async function withdraw(a: Approval): Promise<void> {
    const name = display(a.name, NAME_MAX);
    try {
      const res = await client.revoke(a.origin, a.url);
      if (res.ok) {
        const parts = [t('withdrawn_ok', name)];
        // The desktop program held it: the agents that saw it, and every MCP client, lose it too.
        if (res.desktopAgents !== undefined) parts.push(res.desktopAgents.length > 0 ? t('withdrawn_desktop_agents', res.desktopAgents.map(desktopAgentName).join(', ')) : t('withdrawn_desktop'));
        if (exported(a.origin, a.url)) parts.push(t('withdrawn_exported'));
        announce(parts.join(' '), 'success', { action: { label: t('undo'), run: () => void restore(a, name) } });
      } else announce(t('withdraw_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('withdraw_failed', errorText(err)), 'error');
    }
    await onChanged();
  };
}
