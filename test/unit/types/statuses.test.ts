// The status record of lib/types/statuses.ts: the lists every module reads come from its rows.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_STATUSES, APPROVABLE_STATUSES, isApprovable, STATUSES, WARNING_STATUSES } from '../../../lib/types';

const ROOT = join(__dirname, '../../..');

describe('STATUSES', () => {
  it('lists every status once, in the order of PRODUCT.md §4', () => {
    expect(ALL_STATUSES).toEqual([
      'verified-signed',
      'verified',
      'unverified',
      'digest-mismatch',
      'sources-disagree',
      'bad-signature',
      'key-changed',
      'content-changed',
      'fetch-failed',
      'too-large',
      'invalid',
      'unsupported',
    ]);
  });

  it('derives the approvable and the warning statuses from its rows', () => {
    expect([...APPROVABLE_STATUSES].sort()).toEqual(['unverified', 'verified', 'verified-signed']);
    expect([...WARNING_STATUSES].sort()).toEqual(['bad-signature', 'content-changed', 'digest-mismatch', 'key-changed', 'sources-disagree']);
    for (const s of ALL_STATUSES) expect(isApprovable(s), s).toBe(STATUSES[s].approvable);
    // No status both may be handed on and warns.
    expect(APPROVABLE_STATUSES.filter((s) => WARNING_STATUSES.includes(s))).toEqual([]);
  });

  it('names a label that both catalogues hold, one per status', () => {
    const labels = ALL_STATUSES.map((s) => STATUSES[s].label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const locale of ['en', 'de']) {
      const catalogue = JSON.parse(readFileSync(join(ROOT, 'public/_locales', locale, 'messages.json'), 'utf8')) as Record<string, unknown>;
      expect(
        labels.filter((l) => !Object.hasOwn(catalogue, l)),
        locale,
      ).toEqual([]);
    }
  });
});
