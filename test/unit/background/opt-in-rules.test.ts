// The opt-in and hand-off rules as pure functions over report fixtures.
import { describe, expect, it } from 'vitest';
import { approvalDecision, handOff } from '../../../lib/background/opt-in-rules';
import { ALL_STATUSES, APPROVABLE_STATUSES } from '../../../lib/types';
import { approved, HEX_A, HEX_B, makeSkill } from '../../fixtures/ui/reports';

const seen = { digestLf: HEX_A, confirmUnverified: false, confirmCrossOrigin: false };

describe('approvalDecision', () => {
  it('approves every approvable status and content-changed, refuses the rest', () => {
    for (const status of ALL_STATUSES) {
      const d = approvalDecision(makeSkill({ status }), { ...seen, confirmUnverified: true });
      const expected = APPROVABLE_STATUSES.includes(status) || status === 'content-changed';
      expect(d.ok, status).toBe(expected);
      if (!d.ok) expect(d.error).toBe('not-approvable');
    }
  });

  it('binds only the content the user saw', () => {
    expect(approvalDecision(makeSkill(), { ...seen, digestLf: HEX_B })).toMatchObject({ ok: false, error: 'digest-changed' });
  });

  it('asks for confirmation for unverified and cross-origin skills', () => {
    expect(approvalDecision(makeSkill({ status: 'unverified', declared: [] }), seen)).toMatchObject({ ok: false, error: 'needs-confirmation' });
    const cross = makeSkill({ crossOrigin: true, artifactHost: 'cdn.example' });
    expect(approvalDecision(cross, seen)).toMatchObject({ ok: false, error: 'needs-confirmation' });
    expect(approvalDecision(cross, { ...seen, confirmCrossOrigin: true })).toMatchObject({ ok: true, status: 'verified' });
  });

  it('re-approving changed content takes the status the content would have', () => {
    const signed = makeSkill({ status: 'content-changed', signature: { state: 'valid', message: null } });
    expect(approvalDecision(signed, seen)).toMatchObject({ ok: true, status: 'verified-signed' });
    expect(approvalDecision(makeSkill({ status: 'content-changed' }), seen)).toMatchObject({ ok: true, status: 'verified' });
    const undeclared = makeSkill({ status: 'content-changed', declared: [] });
    expect(approvalDecision(undeclared, seen)).toMatchObject({ ok: false, error: 'needs-confirmation' });
    expect(approvalDecision(undeclared, { ...seen, confirmUnverified: true })).toMatchObject({ ok: true, status: 'unverified' });
  });

  it('refuses a skill that is not listed', () => {
    expect(approvalDecision(null, seen)).toMatchObject({ ok: false, error: 'unknown-skill' });
  });
});

describe('handOff', () => {
  it('hands on an approved, usable skill whose bytes are the approved ones', () => {
    const h = handOff(approved(makeSkill({ status: 'verified-signed' })));
    expect(h).toMatchObject({ ok: true, signatureState: 'verified-signed' });
  });

  it('refuses what is not approved, not usable or changed since approval', () => {
    expect(handOff(null)).toMatchObject({ ok: false, error: 'unknown-skill' });
    expect(handOff(makeSkill())).toMatchObject({ ok: false, error: 'not-approved' });
    for (const status of ALL_STATUSES.filter((s) => !APPROVABLE_STATUSES.includes(s))) {
      expect(handOff(approved(makeSkill({ status }))), status).toMatchObject({ ok: false, error: 'not-usable' });
    }
    const moved = { ...approved(makeSkill()), actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' as const } };
    expect(handOff(moved)).toMatchObject({ ok: false, error: 'digest-changed' });
  });
});
