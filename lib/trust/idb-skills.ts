// The verified bytes of the trust store: each write bounds the records per URL and the byte
// budgets (evict.ts) in the same transaction; approved bytes are never evicted.
import type { SkillRecord } from './schema';
import type { StoredSkill } from './records';
import { StoreError } from './errors';
import { enforceByteBudget, pruneSkills, pruneSkillsAfterBatch } from './evict';
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
  if (!s.archive || !files) return { ...s, bytes, size };
  return { ...s, bytes, archive: { ...s.archive, files }, size };
}

/** The key the byte budget keeps a just-written record by. */
export function writtenKey(s: StoredSkill): string {
  return `${s.origin}\n${s.url}\n${s.digestLf}`;
}

/** The key of a raw skill record, for reporting it when it is unreadable. */
export function skillKeyOf(raw: unknown): unknown {
  const r = raw as { origin?: unknown; url?: unknown; digestLf?: unknown } | null;
  return [r?.origin, r?.url, r?.digestLf];
}

export async function putSkill(core: StoreCore, skill: StoredSkill): Promise<void> {
  const s = toStoredSkill(skill);
  if (!s) throw new StoreError('invalid-input', 'skill does not have the shape of a StoredSkill; nothing was written');
  await core.write(['approvals', 'skills'], async (tx) => {
    await tx.objectStore('skills').put(skillRecord(s));
    await pruneSkills(tx, s.origin, s.url, s.digestLf, core.limits.skillsPerOrigin);
    await enforceByteBudget(tx, [s.origin], new Set([writtenKey(s)]), core.budget(), true);
  });
}

export async function putSkills(core: StoreCore, skills: StoredSkill[]): Promise<void> {
  const checked: StoredSkill[] = [];
  for (const skill of skills) {
    const s = toStoredSkill(skill);
    if (!s) throw new StoreError('invalid-input', 'a skill does not have the shape of a StoredSkill; nothing was written');
    checked.push(s);
  }
  if (checked.length === 0) return;
  await core.write(['approvals', 'skills'], async (tx) => {
    // Requests of one transaction run in order: issue them together, then bound once.
    const skills = tx.objectStore('skills');
    await Promise.all(checked.map((s) => skills.put(skillRecord(s))));
    await pruneSkillsAfterBatch(tx, checked, core.limits.skillsPerOrigin);
    // Bytes the per-URL pruning just removed are not kept by being in the batch.
    const kept = new Set<string>();
    for (const s of checked) if ((await skills.getKey([s.origin, s.url, s.digestLf])) !== undefined) kept.add(writtenKey(s));
    await enforceByteBudget(tx, checked.map((s) => s.origin), kept, core.budget(), true);
  });
}

export async function getSkill(core: StoreCore, origin: string, url: string, digestLf: string): Promise<StoredSkill | null> {
  const raw: unknown = await core.read(['skills'], (tx) => tx.objectStore('skills').get([origin, url, digestLf]));
  return core.checked('skills', [origin, url, digestLf], raw, toStoredSkill);
}

export async function getLatestSkill(core: StoreCore, origin: string, url: string): Promise<StoredSkill | null> {
  return core.read(['skills'], async (tx) => {
    const range = IDBKeyRange.bound([origin, url, -Infinity], [origin, url, Infinity]);
    let cursor = await tx.objectStore('skills').index('by-origin-url-storedAt').openCursor(range, 'prev');
    while (cursor) {
      const skill = core.checked('skills', cursor.primaryKey, cursor.value, toStoredSkill);
      if (skill) return skill;
      cursor = await cursor.continue();
    }
    return null;
  });
}
