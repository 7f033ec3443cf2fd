// What the library says about an approved skill, in plain words: the popup's status words when
// nothing needs the user, else what does, both from the tables in components/shared/status.ts.
import type { ApprovedSkillSummary, LibraryAttention } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { LIBRARY_STATES, statusLabel, stateLook } from '../shared/status';

type Item = Pick<ApprovedSkillSummary, 'attention' | 'status'>;

/** Whether the row shows the skill's status chip (nothing needs the user) or what needs the user. */
export function showsStatus(item: Item): boolean {
  return item.status !== null && (item.attention === null || item.attention === 'export-outdated');
}

/** What needs the user, in words, with the tone and marker of the library's table; `null`: nothing does. */
export function attentionLook(attention: LibraryAttention | null) {
  return stateLook(LIBRARY_STATES[attention ?? 'ready']);
}

/** The row's state in the words the popup uses for the same skill when nothing needs the user. */
export function statusWords(item: Item): string {
  if (showsStatus(item) && item.status !== null) {
    const words = statusLabel(item.status);
    return item.attention === 'export-outdated' ? `${words}; ${attentionLook(item.attention).words}` : words;
  }
  return attentionLook(item.attention).words;
}

/** Why the gate refuses a skill that is neither changed nor under a new key, in plain words. */
export function refusalWords(code: string | null): string {
  if (code === 'policy-requires-signed' || code === 'policy-pending') return t('library_refusal_policy');
  if (code === 'site-excluded') return t('library_refusal_excluded');
  return t('library_refusal_elsewhere');
}
