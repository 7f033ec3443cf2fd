// @vitest-environment happy-dom
// How the pages write sizes, dates, durations and fingerprints: numbers and dates through Intl in
// the browser's language, counts through the catalogue's plural forms.
import { describe, expect, it, afterEach } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintGroups, formatBytes, formatDate, formatDuration, formatExactBytes, formatTokens, contextBreakdown, insertedSize } from '../../../../components/shared/format';
import { formatEntry, setMessageSource } from '../../../../lib/i18n';
import { setUiLanguage } from '../../../../lib/i18n/format';

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const german = JSON.parse(readFileSync(join(__dirname, '../../../../public/_locales/de/messages.json'), 'utf8')) as Catalogue;

afterEach(() => {
  setMessageSource(null);
  setUiLanguage(() => 'en-US', 'UTC');
});

describe('format', () => {
  it('formats sizes, dates, durations and fingerprints in English', () => {
    setMessageSource(null);
    setUiLanguage(() => 'en-US', 'UTC');
    expect(formatExactBytes(1234567)).toBe('1,234,567\u00a0bytes');
    expect(formatExactBytes(1)).toBe('1\u00a0byte');
    expect(formatBytes(999)).toBe('999\u00a0bytes');
    expect(formatBytes(1634)).toBe('1.6\u00a0kB');
    expect(formatBytes(2_500_000)).toBe('2.5\u00a0MB');
    expect(formatBytes(null)).toBe('unknown');
    expect(formatTokens(1)).toBe('≈\u00a01\u00a0token');
    expect(formatTokens(4096)).toBe('≈\u00a04,096\u00a0tokens');
    expect(insertedSize({ contextSize: 1634, tokens: 409 })).toBe('Adds ≈\u00a0409\u00a0tokens (1.6\u00a0kB) to the chat');
    // The parts add up: the header is the total less the skill, whichever header was chosen.
    expect(contextBreakdown({ contextSize: 902, tokens: 226, contextParts: { skill: 229, header: 673, shortHeader: 180 } })).toBe(
      "Skill 229\u00a0bytes + Skillpin's header 673\u00a0bytes = 902\u00a0bytes (≈\u00a0226\u00a0tokens)",
    );
    expect(contextBreakdown({ contextSize: 409, tokens: 103, contextParts: { skill: 229, header: 673, shortHeader: 180 } })).toContain("Skillpin's header 180\u00a0bytes = 409\u00a0bytes");
    // No ISO date and no lone "UTC": the browser's own way of writing a date and time.
    expect(formatDate(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('Jan 2, 2025, 3:04 AM');
    expect(formatDate(Number.NaN)).toBe('unknown');
    expect(formatDuration(0, 86_400_000)).toBe('1 day');
    expect(formatDuration(0, 3 * 86_400_000 + 5)).toBe('3 days');
    expect(formatDuration(10, 5)).toBe('less than a day');
    expect(fingerprintGroups('SHA256:abcdefghij')).toEqual({ prefix: 'SHA256:', groups: ['abcd', 'efgh', 'ij'] });
  });

  it('in German: German numbers, dates and plural forms', () => {
    setMessageSource((name, subs) => {
      const entry = german[name];
      return entry ? formatEntry(entry, subs ?? []) : '';
    });
    setUiLanguage(() => 'de', 'UTC');
    expect(formatExactBytes(1234567)).toBe('1.234.567\u00a0Bytes');
    expect(formatExactBytes(1)).toBe('1\u00a0Byte');
    expect(formatBytes(1634)).toBe('1,6\u00a0kB');
    expect(formatTokens(4096)).toBe('≈\u00a04.096\u00a0Tokens');
    expect(formatDate(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('02.01.2025, 03:04');
    expect(formatDuration(0, 86_400_000)).toBe('1 Tag');
    expect(formatDuration(0, 3 * 86_400_000)).toBe('3 Tagen');
  });
});
