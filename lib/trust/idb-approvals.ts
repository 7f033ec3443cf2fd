// The approvals of the trust store (PRODUCT.md §6, §9.2): an approval is written with the bytes
// it binds, in one transaction that checks it names the key pinned right now.
import type { IDBPTransaction } from 'idb';
import type { Approval, Pin } from '../types';
import type { StoredSkill } from './records';
import { StoreError } from './errors';
import { enforceByteBudget, pruneSkills } from './evict';
import { approvalKeyOf, type StoreCore } from './idb-core';
import { skillRecord, writtenKey } from './idb-skills';
import type { SkillpinDB } from './schema';
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
  await core.write(['pins', 'approvals', 'skills'], async (tx) => {
    if (policyKey !== null) {
      // The administrator's key is the origin's pin while the policy names it; no stored pin is read.
      if (a.keyFingerprint !== null && a.keyFingerprint !== policyKey) {
        throw new StoreError('pin-changed', `the approval names key ${a.keyFingerprint}, but the administrator pinned ${policyKey} for ${a.origin}; nothing was written`);
      }
    } else await checkPinBinding(tx.objectStore('pins'), a);
    await tx.objectStore('approvals').put(a);
    await tx.objectStore('skills').put(skillRecord(s));
    const skillsTx = tx as unknown as IDBPTransaction<SkillpinDB, ['approvals', 'skills'], 'readwrite'>;
    await pruneSkills(skillsTx, s.origin, s.url, s.digestLf, core.limits.skillsPerOrigin);
    // Approved bytes make room by evicting unapproved ones; an approval itself is never refused.
    await enforceByteBudget(skillsTx, [s.origin], new Set([writtenKey(s)]), core.budget(), false);
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
      if (existing && existing.digestLf === a.digestLf && existing.keyFingerprint === a.keyFingerprint) return 'unchanged';
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
