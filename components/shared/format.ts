// Small display helpers shared by the popup and the options page.
import { t } from '../../lib/i18n';
import { formatDateTime, formatSize } from '../../lib/i18n/format';
import { tn } from '../../lib/i18n/plural';
import { urlOf } from '../../lib/origin';
import type { SkillReport } from '../../lib/types';

// Numbers and dates through Intl in the browser's language (lib/i18n/format.ts); counts through
// the catalogue's plural forms (lib/i18n/plural.ts).

/** A size: "512 bytes", "3.2 kB" (the exact byte count is in `formatExactBytes`). */
export function formatBytes(n: number | null): string {
  return n === null ? t('unknown') : (formatSize(n) ?? tn('size_bytes', n));
}

/** The exact byte count: "1,234 bytes". */
export function formatExactBytes(n: number | null): string {
  return n === null ? t('unknown') : tn('size_bytes', n);
}

/** A token estimate: "≈ 4,096 tokens". */
export function formatTokens(n: number | null): string {
  return n === null ? t('unknown') : tn('size_tokens', n);
}

/** What Copy and Insert hand on: the size of the whole skill-context block and its token estimate. */
export function insertedSize(skill: Pick<SkillReport, 'contextSize' | 'tokens'>): string | null {
  if (skill.contextSize === null || skill.tokens === null) return null;
  return t('inserted_size', formatBytes(skill.contextSize), formatTokens(skill.tokens));
}

/**
 * What Copy and Insert hand on, in parts that add up: the skill, Skillpin's header (the one the
 * settings choose: the background set contextSize with it), the total and its token estimate.
 */
export function contextBreakdown(skill: Pick<SkillReport, 'contextSize' | 'tokens' | 'contextParts'>): string | null {
  if (skill.contextSize === null || skill.tokens === null) return null;
  if (!skill.contextParts) return insertedSize(skill);
  const header = skill.contextSize - skill.contextParts.skill;
  return t('context_breakdown', formatBytes(skill.contextParts.skill), formatBytes(header), formatBytes(skill.contextSize), formatTokens(skill.tokens));
}

/** Date and time in the browser's language and time zone. */
export function formatDate(ms: number | null | undefined): string {
  // Not a number, or no date (NaN, ±Infinity, beyond the range of Date).
  if (typeof ms !== 'number' || Number.isNaN(new Date(ms).getTime())) return t('unknown');
  return formatDateTime(ms);
}

/** Length of time between two instants, in whole days (at least "less than a day"). */
export function formatDuration(fromMs: number, toMs: number): string {
  const days = Math.floor(Math.max(0, toMs - fromMs) / 86_400_000);
  return days < 1 ? t('duration_under_day') : tn('duration_days', days);
}

/** Splits an SSH-style fingerprint into groups of four after its `SHA256:` prefix. */
export function fingerprintGroups(fp: string): { prefix: string; groups: string[] } {
  const m = /^([A-Za-z0-9]+:)(.*)$/.exec(fp);
  const prefix = m?.[1] ?? '';
  const body = m?.[2] ?? fp;
  return { prefix, groups: body.match(/.{1,4}/gs) ?? [] };
}

/** A URL's or origin's host with its port ("chatgpt.com"), as the address bar shows it; the text itself when it is no URL. */
export function hostOf(url: string): string {
  return urlOf(url)?.host ?? url;
}

export function errorText(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === 'string' && err) return err;
  return t('error_unknown');
}
