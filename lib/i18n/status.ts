// The status of a skill in plain words (PRODUCT.md §4), for every part of Skillpin that names one:
// the popup's chips, the options page's tables, the background's refusals. The status itself always
// comes from the report; these are only its words, from the catalogue.
import type { SkillStatus } from '../types';
import { t, type MessageKey } from './index';

const LABEL: Record<SkillStatus, MessageKey> = {
  'verified-signed': 'status_verified_signed',
  verified: 'status_verified',
  unverified: 'status_unverified',
  'digest-mismatch': 'status_digest_mismatch',
  'sources-disagree': 'status_sources_disagree',
  'bad-signature': 'status_bad_signature',
  'key-changed': 'status_key_changed',
  'content-changed': 'status_content_changed',
  'fetch-failed': 'status_fetch_failed',
  'too-large': 'status_too_large',
  invalid: 'status_invalid',
  unsupported: 'status_unsupported',
};

/** "Verified & signed", "Content changed", …; an unknown status is shown as its code. */
export function statusWords(status: SkillStatus | string): string {
  const key = Object.hasOwn(LABEL, status) ? LABEL[status as SkillStatus] : null;
  return key ? t(key) : status;
}
