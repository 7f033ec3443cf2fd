// Reading what the store holds about an origin's skills for a request: the report (probing the
// origin first when it was never probed, through the probe gate like every probe) and the bytes
// a skill has now.
import type { TrustStore } from '../store/store-api';
import type { StoredSkill } from '../store/records';
import type { OriginReport, SkillReport } from '../types';
import type { WorkerState } from './worker-state';
import type { SenderLike } from './sender';

/**
 * The stored report (a private window's for a request about one), or a fresh one when there is none.
 * The report of an origin not probed yet, for a request from a Skillpin page or a menu (approve,
 * trust a key, a skill context, an export), is probed through the gate (probe-gate.ts), so no such request
 * can make the first request to an origin the rules exclude. `sender` null: the background's own.
 */
export async function reportFor(worker: WorkerState, origin: string, sender: SenderLike | null): Promise<OriginReport> {
  const stored = await worker.currentReport(origin, await worker.isPrivate(origin, sender));
  return stored ?? (await worker.probes.probe('first-report', origin, sender === null ? { kind: 'background' } : { kind: 'request', sender }));
}

/** The stored bytes a skill has now (those its digest check passed; for an archive, its current files), or null. */
export async function currentBytes(s: TrustStore, origin: string, skill: SkillReport): Promise<StoredSkill | null> {
  if (!skill.url || !skill.actual) return null;
  return s.getSkill(origin, skill.url, skill.actual.lf, skill.archive?.filesDigest ?? '');
}
