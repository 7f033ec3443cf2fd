// How each state is shown, from one table per kind of state: plain words, a tone (its colour), and
// a text marker so that the meaning never rests on colour alone. Skill statuses,
// the library's states, the desktop section's states and site access are each one Record keyed by
// the state's type, so a new state is one row, and a state without a row does not compile
// (test/unit/components/shared/status-table.test.ts lists every state). The state itself always
// comes from the report or the background.
import type { AdvisoryFlagCode, SkillStatus } from '../../lib/types';
import type { DesktopState, LibraryAttention } from '../../lib/messages';
import { tn, type PluralBase } from '../../lib/i18n/plural';
import { t, type MessageKey } from '../../lib/i18n';

/**
 * `proven`: what verification proves (the bytes are the ones the site declared, signed with the key
 * first seen for it), shown apart from `good` so that it never reads as a seal of safety.
 */
export type Tone = 'good' | 'proven' | 'caution' | 'bad' | 'neutral';

/** Each status's sentence (what it means) and tone. */
const STATUS: Record<SkillStatus, [MessageKey, Tone]> = {
  'verified-signed': ['explain_verified_signed', 'proven'],
  verified: ['explain_verified', 'proven'],
  unverified: ['explain_unverified', 'caution'],
  'digest-mismatch': ['explain_digest_mismatch', 'bad'],
  'sources-disagree': ['explain_sources_disagree', 'bad'],
  'bad-signature': ['explain_bad_signature', 'bad'],
  'key-changed': ['explain_key_changed', 'bad'],
  'content-changed': ['explain_content_changed', 'caution'],
  'fetch-failed': ['explain_fetch_failed', 'neutral'],
  'too-large': ['explain_too_large', 'neutral'],
  invalid: ['explain_invalid', 'neutral'],
  unsupported: ['explain_unsupported', 'neutral'],
};

/** Each tone's text marker. */
export const TONE_MARK: Record<Tone, string> = { good: '✓', proven: '≡', caution: '!', bad: '✕', neutral: '–' };

/** The colour class of an options page's result box by its tone: "Off" is neutral, not the green of success. */
export const TONE_BOX: Record<Tone, string> = { good: 'result-ok', proven: 'result-info', neutral: 'result-info', caution: 'result-warn', bad: 'result-bad' };

/** A status in plain words. */
export { statusWords as statusLabel } from '../../lib/i18n/status';

export function statusExplanation(status: SkillStatus): string {
  return t(STATUS[status][0]);
}

export function statusTone(status: SkillStatus): Tone {
  return STATUS[status][1];
}

/** One state as every page shows it: its words and its tone (the tone gives the colour and the marker). */
type StateRow = { label: MessageKey; tone: Tone };

/**
 * The library's state of an approved skill (what needs the user). `ready`: nothing does; the row then
 * shows the skill's status chip, in the popup's words.
 */
export const LIBRARY_STATES = {
  ready: { label: 'library_status_ready', tone: 'proven' },
  'content-changed': { label: 'library_status_content_changed', tone: 'caution' },
  'key-changed': { label: 'library_status_key_changed', tone: 'bad' },
  'key-revoked': { label: 'library_status_key_revoked', tone: 'bad' },
  'review-files': { label: 'library_status_review_files', tone: 'caution' },
  unusable: { label: 'library_status_unusable', tone: 'neutral' },
  'export-outdated': { label: 'library_status_export_outdated', tone: 'caution' },
  'needs-confirmation': { label: 'library_status_needs_confirmation', tone: 'bad' },
} as const satisfies Record<LibraryAttention | 'ready', StateRow>;

/** The desktop section's states. `off` is the user's choice: neutral, never the colour of success. */
export const DESKTOP_STATES = {
  off: { label: 'desktop_state_off', tone: 'neutral' },
  'no-permission': { label: 'desktop_state_no_permission', tone: 'caution' },
  'restart-needed': { label: 'desktop_state_restart_needed', tone: 'caution' },
  waiting: { label: 'desktop_state_waiting', tone: 'caution' },
  working: { label: 'desktop_state_working', tone: 'neutral' },
  'in-sync': { label: 'desktop_state_in_sync', tone: 'good' },
  'host-absent': { label: 'desktop_state_host_absent', tone: 'caution' },
  forbidden: { label: 'desktop_state_forbidden', tone: 'caution' },
  retrying: { label: 'desktop_state_retrying', tone: 'caution' },
  unavailable: { label: 'desktop_state_unavailable', tone: 'bad' },
  outdated: { label: 'desktop_state_outdated', tone: 'bad' },
} as const satisfies Record<DesktopState, StateRow>;

/** What Skillpin may read, as the options page's site access box says it. */
export type SiteAccessState = 'all' | 'some' | 'none';

export const SITE_ACCESS_STATES = {
  all: { label: 'access_all', tone: 'neutral' },
  some: { label: 'access_some', tone: 'caution' },
  none: { label: 'access_none', tone: 'caution' },
} as const satisfies Record<SiteAccessState, StateRow>;

/** The words, tone and marker of a state from one of the tables above. */
export function stateLook(row: StateRow): { words: string; tone: Tone; mark: string } {
  return { words: t(row.label), tone: row.tone, mark: TONE_MARK[row.tone] };
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
