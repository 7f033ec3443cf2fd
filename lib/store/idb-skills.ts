// The verified bytes of the trust store: each write bounds the records per URL and the byte
// budgets (evict.ts) in the same transaction, and keeps the byte totals (byte-totals.ts) with it;
// approved bytes are never evicted. Records are keyed (origin, url, digestLf, filesKey): an archive
// with the same SKILL.md but other files is a record of its own (FORMATS.md §6.6).
import { withTotals, type ByteTotals, type TotalsTx } from './byte-totals';
import type { SkillKey, SkillRecord } from './schema';
import { filesKeyOf, storedKey, type StoredSkill } from './records';
import { checkedInput } from './errors';
import { enforceByteBudget, pruneSkills, type SkillsTx, type WrittenSkill } from './evict';
import type { StoreCore } from './idb-core';
import { compactBytes, toStoredSkill } from './validate';

/**
 * The stored form of a skill: compact bytes and their count (read by the byte budgets). An
 * archive's kept files count toward its size: the budgets bound every byte stored.
 */
export function skillRecord(s: StoredSkill): SkillRecord {
  const bytes = compactBytes(s.bytes);
  const files = s.archive?.files?.map((f) => ({ path: f.path, bytes: compactBytes(f.bytes) }));
  const size = bytes.byteLength + (files ?? []).reduce((sum, f) => sum + f.bytes.byteLength, 0);
  const filesKey = filesKeyOf(s);
  if (!s.archive || !files) return { ...s, bytes, size, filesKey };
  return { ...s, bytes, archive: { ...s.archive, files }, size, filesKey };
}

/** What the pruning keeps of a just-written record. */
export function writtenSkill(s: StoredSkill): WrittenSkill {
  return { origin: s.origin, url: s.url, digestLf: s.digestLf, filesKey: filesKeyOf(s) };
}

/** The records of a batch, checked: in order (`ordered`) and once per key, the later record winning (`batch`). */
export function checkedSkillBatch(skills: readonly StoredSkill[]): { ordered: StoredSkill[]; batch: StoredSkill[] } {
  const ordered: StoredSkill[] = [];
  const checked = new Map<string, StoredSkill>();
  for (const skill of skills) {
    const s = checkedInput(toStoredSkill(skill), 'a skill does not have the shape of a StoredSkill; nothing was written');
    ordered.push(s);
    // A later record with the same key wins (and is written once, so its size is counted once).
    checked.delete(storedKey(s));
    checked.set(storedKey(s), s);
  }
  return { ordered, batch: [...checked.values()] };
}

export async function putSkills(core: StoreCore, skills: StoredSkill[]): Promise<void> {
  const checked = checkedSkillBatch(skills);
  if (checked.batch.length === 0) return;
  await core.write(['approvals', 'skills', 'totals'], (tx) => withTotals(tx as unknown as TotalsTx, (totals) => putSkillsInTx(core, tx as SkillsTx, checked, totals)));
}

/** putSkills inside the caller's readwrite transaction over (at least) approvals, skills and totals. */
export async function putSkillsInTx(core: StoreCore, tx: SkillsTx, checked: ReturnType<typeof checkedSkillBatch>, totals: ByteTotals): Promise<void> {
  const { ordered, batch } = checked;
  // The batch holds each key once: its records are written together (ByteTotals.putAll).
  await totals.putAll(batch.map(skillRecord));
  await pruneSkills(tx, ordered.map(writtenSkill), core.limits.skillsPerOrigin, totals);
  // Bytes the per-URL pruning just removed are not kept by being in the batch.
  const store = tx.objectStore('skills');
  const present = await Promise.all(batch.map((s) => store.getKey([s.origin, s.url, s.digestLf, filesKeyOf(s)] as SkillKey)));
  const kept = new Set(batch.filter((_, i) => present[i] !== undefined).map((s) => storedKey(s)));
  const origins = batch.map((s) => s.origin);
  await enforceByteBudget(tx, origins, kept, core.limits, true, totals);
}

export async function getLatestSkill(core: StoreCore, origin: string, url: string): Promise<StoredSkill | null> {
  return core.read(['skills'], async (tx) => {
    const range = IDBKeyRange.bound([origin, url, -Infinity], [origin, url, Infinity]);
    let cursor = await tx.objectStore('skills').index('by-origin-url-storedAt').openCursor(range, 'prev');
    while (cursor) {
      const skill = core.checked('skills', cursor.primaryKey, cursor.value);
      if (skill) return skill;
      cursor = await cursor.continue();
    }
    return null;
  });
}
