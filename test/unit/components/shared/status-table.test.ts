// Every state a page shows has one row of words and tone, and the rows say what
// verification proves without reading as a seal of safety.
import { describe, expect, it } from 'vitest';
import { DESKTOP_STATES, LIBRARY_STATES, SITE_ACCESS_STATES, statusLabel, statusTone, stateLook } from '../../../../components/shared/status';
import { statusProof } from '../../../../components/shared/StatusChip';
import { STATUSES, type SkillStatus } from '../../../../lib/types';
import type { DesktopState, LibraryAttention } from '../../../../lib/messages';
import { t } from '../../../../lib/i18n';

// The states each type allows, written out: a state added to a type without a row here fails tsc.
const DESKTOP: Record<DesktopState, true> = {
  off: true,
  'no-permission': true,
  'restart-needed': true,
  waiting: true,
  working: true,
  'in-sync': true,
  'host-absent': true,
  forbidden: true,
  retrying: true,
  unavailable: true,
  outdated: true,
};
const LIBRARY: Record<LibraryAttention | 'ready', true> = {
  ready: true,
  'content-changed': true,
  'key-changed': true,
  'key-revoked': true,
  'review-files': true,
  unusable: true,
  'export-outdated': true,
  'needs-confirmation': true,
};

describe('one table per kind of state', () => {
  it('every state of every kind has a row with words in the catalogue', () => {
    const tables = [
      [Object.keys(DESKTOP), DESKTOP_STATES],
      [Object.keys(LIBRARY), LIBRARY_STATES],
      [['all', 'some', 'none'], SITE_ACCESS_STATES],
    ] as const;
    for (const [states, table] of tables) {
      expect(Object.keys(table).sort()).toEqual([...states].sort());
      for (const row of Object.values(table)) expect(stateLook(row).words).not.toBe(row.label);
    }
    for (const status of Object.keys(STATUSES) as SkillStatus[]) expect(statusLabel(status)).not.toBe(status);
  });

  it('"Off" of the desktop section is neutral, not the colour of success', () => {
    expect(DESKTOP_STATES.off.tone).toBe('neutral');
    expect(DESKTOP_STATES['in-sync'].tone).toBe('good');
  });

  it('a verified skill is never shown as a safety seal: no green check, no "safe"', () => {
    for (const status of ['verified-signed', 'verified'] as const) {
      expect(statusTone(status)).not.toBe('good');
      expect(statusLabel(status).toLowerCase()).not.toMatch(/\bsafe/);
    }
    expect(LIBRARY_STATES.ready.tone).not.toBe('good');
  });

  it('the chip says what a signature proves under trust on first use, with the day the key was first seen', () => {
    const firstSeen = Date.UTC(2026, 2, 14, 12);
    const proof = statusProof('verified-signed', { firstSeen });
    expect(proof).toContain('first saw for this site on');
    expect(proof).toContain('2026');
    expect(proof.toLowerCase()).not.toMatch(/\bsafe/);
    expect(statusProof('verified-signed', null)).toBe(t('explain_verified_signed'));
  });
});
