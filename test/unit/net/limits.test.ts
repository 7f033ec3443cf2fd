import { describe, expect, it } from 'vitest';
import { LIMITS, capFor } from '../../../lib/net/limits';
import type { DocumentKind } from '../../../lib/types';

describe('LIMITS', () => {
  it('holds the caps of FORMATS.md §9.1 in bytes', () => {
    expect(LIMITS.archiveUnpacked).toBe(16_777_216);
    expect(LIMITS.archiveFiles).toBe(512);
    expect(LIMITS.probeDownload).toBe(33_554_432);
  });

  it('holds the time and count limits', () => {
    expect(LIMITS.timeoutMs).toBe(10_000);
    expect(LIMITS.maxRedirects).toBe(5);
    expect(LIMITS.maxSkillsPerOrigin).toBe(64);
    expect(LIMITS.artifactConcurrency).toBe(6);
    expect(LIMITS.negativeTtlMs).toBe(86_400_000);
    expect(LIMITS.minPositiveTtlMs).toBe(300_000);
    expect(LIMITS.maxPositiveTtlMs).toBe(86_400_000);
  });
});

describe('capFor', () => {
  const cases: Array<[DocumentKind, number]> = [
    ['llms-txt', 1_048_576],
    ['index', 262_144],
    ['legacy-index', 262_144],
    ['signing-key', 262_144],
    ['attestations', 262_144],
    ['skill-md', 262_144],
    ['archive', 16_777_216],
  ];
  it.each(cases)('%s → %d', (kind, cap) => {
    expect(capFor(kind)).toBe(cap);
  });
});
