// How each status is shown: plain words, a tone, and a text marker so that the
// meaning never rests on colour alone. The status itself always comes from the report.
import type { SkillStatus } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import { statusWords } from '../../lib/i18n/status';

export type Tone = 'good' | 'caution' | 'bad' | 'neutral';


const EXPLAIN: Record<SkillStatus, MessageKey> = {
  'verified-signed': 'explain_verified_signed',
  verified: 'explain_verified',
  unverified: 'explain_unverified',
  'digest-mismatch': 'explain_digest_mismatch',
  'sources-disagree': 'explain_sources_disagree',
  'bad-signature': 'explain_bad_signature',
  'key-changed': 'explain_key_changed',
  'content-changed': 'explain_content_changed',
  'fetch-failed': 'explain_fetch_failed',
  'too-large': 'explain_too_large',
  invalid: 'explain_invalid',
  unsupported: 'explain_unsupported',
};

const TONE: Record<SkillStatus, Tone> = {
  'verified-signed': 'good',
  verified: 'good',
  unverified: 'caution',
  'digest-mismatch': 'bad',
  'sources-disagree': 'bad',
  'bad-signature': 'bad',
  'key-changed': 'bad',
  'content-changed': 'caution',
  'fetch-failed': 'neutral',
  'too-large': 'neutral',
  invalid: 'neutral',
  unsupported: 'neutral',
};

const MARK: Record<Tone, string> = { good: '✓', caution: '!', bad: '✕', neutral: '–' };

export function statusLabel(status: SkillStatus): string {
  return statusWords(status);
}

export function statusExplanation(status: SkillStatus): string {
  return t(EXPLAIN[status]);
}

export function statusTone(status: SkillStatus): Tone {
  return TONE[status];
}

export function toneMark(tone: Tone): string {
  return MARK[tone];
}
