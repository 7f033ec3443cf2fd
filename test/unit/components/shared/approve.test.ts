// @vitest-environment happy-dom
// When the popup offers Approve, and which confirmations it asks for first.
import { describe, expect, it } from 'vitest';
import { approveCheck, approvalNeeds } from '../../../../components/shared/approve';
import { setMessageSource } from '../../../../lib/i18n';
import { ALL_STATUSES, isApprovable } from '../../../../lib/types';
import { makeSkill } from '../../../fixtures/ui/reports';

setMessageSource(null);

describe('approve rules', () => {
  it('allows approval exactly for approvable statuses with content', () => {
    for (const status of ALL_STATUSES) {
      expect(approveCheck(makeSkill({ status })).ok, status).toBe(isApprovable(status));
    }
    expect(approveCheck(makeSkill({ status: 'content-changed' }), true).ok).toBe(true);
    expect(approveCheck(makeSkill({ status: 'key-changed' }), true).ok).toBe(false);
    expect(approveCheck(makeSkill({ status: 'verified', actual: null })).ok).toBe(false);
    expect(approveCheck(makeSkill({ status: 'verified', url: null })).ok).toBe(false);
  });
  it('needs confirmations for unverified and cross-origin', () => {
    expect(approvalNeeds(makeSkill({ status: 'unverified', declared: [] }))).toEqual({ unverified: true, crossOrigin: false });
    expect(approvalNeeds(makeSkill({ status: 'verified', crossOrigin: true }))).toEqual({ unverified: false, crossOrigin: true });
    expect(approvalNeeds(makeSkill({ status: 'content-changed', declared: [] })).unverified).toBe(true);
    expect(approvalNeeds(makeSkill({ status: 'content-changed' })).unverified).toBe(false);
  });
});
