// How each status is shown: plain words, a tone, and a text marker so that the
// meaning never rests on colour alone. The status itself always comes from the report.
import type { AdvisoryFlagCode, SkillStatus } from '../../lib/types';
import { tn, type PluralBase } from '../../lib/i18n/plural';
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

/** Finer verdicts for the codes behind a status that the status's own sentence would not explain. */
const VERDICT: Record<string, MessageKey> = {
  'verified-unsigned-entry': 'verdict_unsigned_entry',
  'key-downgrade': 'verdict_key_downgrade',
  'key-revoked': 'verdict_key_revoked',
  'key-unavailable': 'verdict_key_unavailable',
  'fetch-not-found': 'verdict_fetch_not_found',
  'fetch-transient': 'verdict_fetch_transient',
  'url-blocked': 'verdict_url_blocked',
  'skill-limit': 'verdict_skill_limit',
  'snapshot-failed': 'verdict_snapshot_failed',
};

/** The one plain sentence that says what the status of this skill means (its code decides when it says more). */
export function statusVerdict(status: SkillStatus, code: string): string {
  const key = Object.hasOwn(VERDICT, code) ? VERDICT[code] : undefined;
  return key ? t(key) : statusExplanation(status);
}

const FLAG: Record<AdvisoryFlagCode, PluralBase> = {
  'invisible-unicode': 'flag_invisible_unicode',
  'bidi-control': 'flag_bidi_control',
  'html-comment': 'flag_html_comment',
  'long-line': 'flag_long_line',
  'ignore-previous-instructions': 'flag_ignore_previous',
  'cross-origin-link': 'flag_cross_origin_link',
  'hidden-markdown': 'flag_hidden_markdown',
  'executable-tool': 'flag_executable_tool',
  'declares-tools': 'flag_declares_tools',
  'hidden-in-name': 'flag_hidden_in_name',
};

/** A content flag in plain words, with how often it was found. */
export function flagWords(code: AdvisoryFlagCode, count: number): string {
  return tn(FLAG[code], count);
}
