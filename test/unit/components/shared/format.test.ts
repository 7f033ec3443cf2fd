// @vitest-environment happy-dom
// How the pages write sizes, dates, durations and fingerprints.
import { describe, expect, it } from 'vitest';
import { fingerprintGroups, formatBytes, formatDate, formatDuration } from '../../../../components/shared/format';
import { setMessageSource } from '../../../../lib/i18n';

setMessageSource(null);

describe('format', () => {
  it('formats sizes, dates, durations and fingerprints', () => {
    expect(formatBytes(1234567)).toBe('1,234,567\u00a0bytes');
    for (const n of [0, 7, 999, 1000, 1234.5, 98765432109]) expect(formatBytes(n)).toBe(`${n.toLocaleString('en-US')}\u00a0bytes`);
    expect(formatBytes(null)).toBe('unknown');
    expect(formatDate(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02 03:04 UTC');
    expect(formatDate(Number.NaN)).toBe('unknown');
    expect(formatDuration(0, 3 * 86_400_000 + 5)).toBe('3 days');
    expect(formatDuration(10, 5)).toBe('less than a day');
    expect(fingerprintGroups('SHA256:abcdefghij')).toEqual({ prefix: 'SHA256:', groups: ['abcd', 'efgh', 'ij'] });
  });
});
