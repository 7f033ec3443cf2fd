// What the library says about an approved skill, in plain words.
import type { ApprovedSkillSummary, LibraryAttention } from '../../lib/messages';
import { t } from '../../lib/i18n';

/** The tone of a row's status: green when it can be used, red when it needs the user. */
export function attentionTone(item: Pick<ApprovedSkillSummary, 'usable' | 'attention'>): 'good' | 'bad' {
  return item.usable && item.attention !== 'needs-confirmation' ? 'good' : 'bad';
}

export function statusWords(attention: LibraryAttention | null): string {
  switch (attention) {
    case null:
      return t('library_status_ready');
    case 'content-changed':
      return t('library_status_content_changed');
    case 'key-changed':
      return t('library_status_key_changed');
    case 'key-revoked':
      return t('library_status_key_revoked');
    case 'review-files':
      return t('library_status_review_files');
    case 'export-outdated':
      return t('library_status_export_outdated');
    case 'needs-confirmation':
      return t('library_status_needs_confirmation');
    default:
      return t('library_status_unusable');
  }
}

/** Why the gate refuses a skill that is neither changed nor under a new key, in plain words. */
export function refusalWords(code: string | null): string {
  if (code === 'policy-requires-signed' || code === 'policy-pending') return t('library_refusal_policy');
  if (code === 'site-excluded') return t('library_refusal_excluded');
  return t('library_refusal_elsewhere');
}
