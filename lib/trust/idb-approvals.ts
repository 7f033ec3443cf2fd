// The approvals of the trust store (PRODUCT.md §6, §9.2): an approval is written with the bytes
// it binds (an archive's files included), in one transaction that checks it names the key pinned
// right now.
import type { Approval, Pin } from '../types';
import { withTotals, type TotalsTx } from './byte-totals';
import { filesKeyOf, type StoredSkill } from './records';
import { StoreError } from './errors';
import { enforceByteBudget, pruneSkills, type SkillsTx } from './evict';
import { approvalKeyOf, type StoreCore } from './idb-core';
import { skillRecord, writtenKey, writtenSkill } from './idb-skills';
import type { ApprovalImport } from './store-api';
import { toApproval, toPin, toStoredSkill } from './validate';

export async function getApprovals(core: StoreCore, origin: string): Promise<Approval[]> {
  const raws: unknown[] = await core.read(['approvals'], (tx) => tx.objectStore('approvals').index('by-origin').getAll(origin));
  return core.checkedAll('approvals', raws, toApproval, approvalKeyOf);
}

export async function getApproval(core: StoreCore, origin: string, url: string): Promise<Approval | null> {
  const raw: unknown = await core.read(['approvals'], (tx) => tx.objectStore('approvals').get([origin, url]));
  return core.checked('approvals', [origin, url], raw, toApproval);
}

export async function approve(core: StoreCore, approval: Approval, skill: StoredSkill, policyKey: string | null = null): Promise<void> {
  const a = toApproval(approval);
  if (!a) throw new StoreError('invalid-input', 'approval does not have the shape of an Approval; nothing was written');
  const s = toStoredSkill(skill);
  if (!s) throw new StoreError('invalid-input', 'skill does not have the shape of a StoredSkill; nothing was written');
  if (s.origin !== a.origin || s.url !== a.url || s.digestLf !== a.digestLf || s.digestRaw !== a.digestRaw) {
    throw new StoreError('invalid-input', 'the approval does not bind these bytes (origin, url or digest differ); nothing was written');
  }
  if ((a.archive?.filesDigest ?? '') !== filesKeyOf(s) || (s.archive !== undefined && (a.archive === undefined || a.archive.sha256 !== s.archive.sha256))) {
    throw new StoreError('invalid-input', "the approval does not bind these bytes (the archive's files differ, or an archive's files are not bound); nothing was written");
  }
  await core.write(['pins', 'approvals', 'skills', 'totals'], async (tx) => {
    if (policyKey !== null) {
      // The administrator's key is the origin's pin while the policy names it; no stored pin is read.
      if (a.keyFingerprint !== null && a.keyFingerprint !== policyKey) {
        throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but the administrator pinned ${policyKey} for ${a.origin}; nothing was written`);
      }
    } else await checkPinBinding(tx.objectStore('pins'), a);
    await tx.objectStore('approvals').put(a);
    const skillsTx = tx as unknown as SkillsTx;
    await withTotals(tx as unknown as TotalsTx, async (totals) => {
      await totals.put(skillRecord(s));
      await pruneSkills(skillsTx, writtenSkill(s), core.limits.skillsPerOrigin, totals);
      // Approved bytes make room by evicting unapproved ones; an approval itself is never refused.
      await enforceByteBudget(skillsTx, [s.origin], new Set([writtenKey(s)]), core.budget(), false, totals);
    });
  });
}

/** An approval that names a key must name the key pinned right now (same transaction). */
async function checkPinBinding(pins: { get(origin: string): Promise<Pin | undefined> }, a: Approval): Promise<boolean> {
  if (a.keyFingerprint === null) return true;
  const pin = toPin(await pins.get(a.origin));
  if (!pin || pin.fingerprint !== a.keyFingerprint) {
    throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but ${a.origin} has ${pin ? `key ${pin.fingerprint}` : 'no readable pin'}; nothing was written`);
  }
  return true;
}

export async function importApproval(core: StoreCore, approval: Approval): Promise<ApprovalImport> {
  const a = toApproval(approval);
  if (!a) throw new StoreError('invalid-input', 'approval does not have the shape of an Approval; nothing was written');
  return core.write(['pins', 'approvals'], async (tx): Promise<ApprovalImport> => {
    try {
      await checkPinBinding(tx.objectStore('pins'), a);
    } catch (e) {
      if (e instanceof StoreError && e.code === 'pin-changed') return 'pin-mismatch';
      throw e;
    }
    const approvals = tx.objectStore('approvals');
    const raw: unknown = await approvals.get([a.origin, a.url]);
    if (raw !== undefined) {
      const existing = toApproval(raw);
      if (!existing) core.corrupt('approvals', [a.origin, a.url]);
      const sameFiles = (existing?.archive?.filesDigest ?? null) === (a.archive?.filesDigest ?? null);
      if (existing && existing.digestLf === a.digestLf && existing.keyFingerprint === a.keyFingerprint && sameFiles) return 'unchanged';
      return 'different';
    }
    await approvals.put(a);
    return 'added';
  });
}

export async function revoke(core: StoreCore, origin: string, url: string): Promise<void> {
  await core.write(['approvals'], (tx) => tx.objectStore('approvals').delete([origin, url]));
}

export async function listApprovals(core: StoreCore): Promise<Approval[]> {
  const raws: unknown[] = await core.read(['approvals'], (tx) => tx.objectStore('approvals').getAll());
  return core.checkedAll('approvals', raws, toApproval, approvalKeyOf);
}
