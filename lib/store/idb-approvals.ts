// The approvals of the trust store (PRODUCT.md §6, §9.2): an approval is written with the bytes
// it binds (an archive's files included), in one transaction that checks it names the key pinned
// right now (the rules: trust-rules.ts).
import type { Approval, Pin } from '../types';
import { withTotals, type TotalsTx } from './byte-totals';
import { storedKey, type StoredSkill } from './records';
import { checkedInput } from './errors';
import { enforceByteBudget, pruneSkills, type SkillsTx } from './evict';
import type { StoreCore } from './idb-core';
import { skillRecord, writtenSkill } from './idb-skills';
import type { ApprovalImport } from './store-api';
import { bindingError, checkedApproval, sameApproval } from './trust-rules';
import { toApproval, toPin } from './validate';

export async function getApprovals(core: StoreCore, origin: string): Promise<Approval[]> {
  const raws: unknown[] = await core.read(['approvals'], (tx) => tx.objectStore('approvals').index('by-origin').getAll(origin));
  return core.checkedAll('approvals', raws);
}

export async function approve(core: StoreCore, approval: Approval, skill: StoredSkill, policyKey: string | null = null): Promise<void> {
  const { a, s } = checkedApproval(approval, skill);
  await core.write(['pins', 'approvals', 'skills', 'totals'], async (tx) => {
    // The administrator's key is the origin's pin while the policy names it; no stored pin is read.
    const refused = bindingError(a, policyKey, policyKey === null ? await pinOf(tx.objectStore('pins'), a) : null);
    if (refused) throw refused;
    await tx.objectStore('approvals').put(a);
    const skillsTx = tx as unknown as SkillsTx;
    await withTotals(tx as unknown as TotalsTx, async (totals) => {
      await totals.putAll([skillRecord(s)]);
      await pruneSkills(skillsTx, [writtenSkill(s)], core.limits.skillsPerOrigin, totals);
      // Approved bytes make room by evicting unapproved ones; an approval itself is never refused.
      await enforceByteBudget(skillsTx, [s.origin], new Set([storedKey(s)]), core.limits, false, totals);
    });
  });
}

/** The pin an approval that names a key is checked against (same transaction); none is read for one that names no key. */
async function pinOf(pins: { get(origin: string): Promise<Pin | undefined> }, a: Approval): Promise<Pin | null> {
  return a.keyFingerprint === null ? null : toPin(await pins.get(a.origin));
}

export async function importApproval(core: StoreCore, approval: Approval): Promise<ApprovalImport> {
  const a = checkedInput(toApproval(approval), 'approval does not have the shape of an Approval; nothing was written');
  return core.write(['pins', 'approvals'], async (tx): Promise<ApprovalImport> => {
    if (bindingError(a, null, await pinOf(tx.objectStore('pins'), a))) return 'pin-mismatch';
    const approvals = tx.objectStore('approvals');
    const raw: unknown = await approvals.get([a.origin, a.url]);
    if (raw !== undefined) {
      const existing = core.checked('approvals', [a.origin, a.url], raw);
      return existing && sameApproval(existing, a) ? 'unchanged' : 'different';
    }
    await approvals.put(a);
    return 'added';
  });
}

export async function revoke(core: StoreCore, origin: string, url: string): Promise<void> {
  await core.write(['approvals'], (tx) => tx.objectStore('approvals').delete([origin, url]));
}
