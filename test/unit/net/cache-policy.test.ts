import { describe, expect, it } from 'vitest';
import { backoffMs, positiveTtlMs, retryAfterMs } from '../../../lib/net/cache-policy';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('positiveTtlMs', () => {
  it('uses max-age inside the window', () => {
    expect(positiveTtlMs('max-age=600')).toBe(600_000);
    expect(positiveTtlMs('public, max-age=3600')).toBe(HOUR);
    expect(positiveTtlMs('MAX-AGE=900, must-revalidate')).toBe(900_000);
    expect(positiveTtlMs('max-age="1200"')).toBe(1_200_000);
  });
  it('clamps to [5 min, 24 h]', () => {
    expect(positiveTtlMs('max-age=60')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=299')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=300')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=86400')).toBe(24 * HOUR);
    expect(positiveTtlMs('max-age=31536000')).toBe(24 * HOUR);
    expect(positiveTtlMs('max-age=99999999999999999999')).toBe(24 * HOUR);
  });
  it('gives the 5-minute floor for no-store, no-cache, max-age=0 and a missing header', () => {
    expect(positiveTtlMs(null)).toBe(5 * MIN);
    expect(positiveTtlMs('')).toBe(5 * MIN);
    expect(positiveTtlMs('no-store')).toBe(5 * MIN);
    expect(positiveTtlMs('no-cache')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=0')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=3600, no-store')).toBe(5 * MIN);
    expect(positiveTtlMs('No-Cache, max-age=3600')).toBe(5 * MIN);
    expect(positiveTtlMs('no-cache="set-cookie", max-age=3600')).toBe(5 * MIN);
  });
  it('ignores malformed and unrelated directives', () => {
    expect(positiveTtlMs('max-age=abc')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=-5')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age')).toBe(5 * MIN);
    expect(positiveTtlMs('s-maxage=3600')).toBe(5 * MIN);
    expect(positiveTtlMs('max-age=1.5')).toBe(5 * MIN);
    expect(positiveTtlMs('public, immutable')).toBe(5 * MIN);
  });
  it('takes the smallest max-age when repeated', () => {
    expect(positiveTtlMs('max-age=7200, max-age=600')).toBe(600_000);
  });
});

describe('backoffMs', () => {
  it('is zero without failures', () => {
    expect(backoffMs(0)).toBe(0);
    expect(backoffMs(-3)).toBe(0);
    expect(backoffMs(Number.NaN)).toBe(0);
  });
  it('doubles from one minute', () => {
    expect(backoffMs(1)).toBe(MIN);
    expect(backoffMs(2)).toBe(2 * MIN);
    expect(backoffMs(3)).toBe(4 * MIN);
    expect(backoffMs(6)).toBe(32 * MIN);
  });
  it('is capped at one hour', () => {
    expect(backoffMs(7)).toBe(HOUR);
    expect(backoffMs(100)).toBe(HOUR);
    expect(backoffMs(Number.POSITIVE_INFINITY)).toBe(HOUR);
    expect(backoffMs(1e9)).toBe(HOUR);
  });
});

describe('retryAfterMs', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it('reads delta-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP date relative to now', () => {
    expect(retryAfterMs('Wed, 01 Jan 2025 12:05:00 GMT', now)).toBe(5 * MIN);
    expect(retryAfterMs('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });
  it('caps at 24 h', () => {
    expect(retryAfterMs('999999999', now)).toBe(24 * HOUR);
    expect(retryAfterMs('Fri, 01 Jan 2027 00:00:00 GMT', now)).toBe(24 * HOUR);
  });
  it('gives null for a missing or malformed header', () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('-5', now)).toBeNull();
    expect(retryAfterMs('1.5', now)).toBeNull();
    expect(retryAfterMs('2025-13-45', now)).toBeNull();
  });
});
