// The statuses of a skill (PRODUCT.md §4), one record with what each means.

// ---------------------------------------------------------------------------
// Statuses (PRODUCT.md §4, precedence FORMATS.md §10)
// ---------------------------------------------------------------------------

/** What one status means to the rest of Skillpin (a row of STATUSES). */
export interface StatusRow {
  /** A user may approve a skill with this status and hand it on (PRODUCT.md §4). */
  approvable: boolean;
  /** It turns the toolbar badge into a warning. */
  warning: boolean;
  /** Its words in the catalogue (lib/i18n/status.ts, where a type check keeps each one a message key). */
  label: `status_${string}`;
}

/**
 * Every status, one row each, in the order the pages list them. SkillStatus is its keys, and
 * ALL_STATUSES, APPROVABLE_STATUSES and WARNING_STATUSES come from it.
 */
export const STATUSES = {
  'verified-signed': { approvable: true, warning: false, label: 'status_verified_signed' },
  verified: { approvable: true, warning: false, label: 'status_verified' },
  unverified: { approvable: true, warning: false, label: 'status_unverified' },
  'digest-mismatch': { approvable: false, warning: true, label: 'status_digest_mismatch' },
  'sources-disagree': { approvable: false, warning: true, label: 'status_sources_disagree' },
  'bad-signature': { approvable: false, warning: true, label: 'status_bad_signature' },
  'key-changed': { approvable: false, warning: true, label: 'status_key_changed' },
  'content-changed': { approvable: false, warning: true, label: 'status_content_changed' },
  'fetch-failed': { approvable: false, warning: false, label: 'status_fetch_failed' },
  'too-large': { approvable: false, warning: false, label: 'status_too_large' },
  invalid: { approvable: false, warning: false, label: 'status_invalid' },
  unsupported: { approvable: false, warning: false, label: 'status_unsupported' },
} as const satisfies Record<string, StatusRow>;

export type SkillStatus = keyof typeof STATUSES;

export const ALL_STATUSES: readonly SkillStatus[] = Object.keys(STATUSES) as SkillStatus[];

/** Statuses a user may approve and hand on (PRODUCT.md §4). */
export const APPROVABLE_STATUSES: readonly SkillStatus[] = ALL_STATUSES.filter((s) => STATUSES[s].approvable);

/** Statuses that turn the toolbar badge into a warning. */
export const WARNING_STATUSES: readonly SkillStatus[] = ALL_STATUSES.filter((s) => STATUSES[s].warning);

export function isApprovable(status: SkillStatus): boolean {
  return APPROVABLE_STATUSES.includes(status);
}
