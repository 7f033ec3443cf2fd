// Shared pieces of the tests that run the engine (test/unit/probe, conformance, interop): a fake
// clock, a fresh IndexedDB trust store per test (fake-indexeddb, test/support/trust-store.ts), and
// a one-call probe with default settings.
import type { TrustStore } from '../../lib/store/store-api';
import { DEFAULT_SETTINGS, type FetchLike, type OriginReport, type Settings, type SkillReport } from '../../lib/types';
import { approvalFor } from '../../lib/probe/approved-bytes';
import { probeOrigin, type ProbeOptions } from '../../lib/probe/probe-origin';
import { openTestStore } from './trust-store';

export class FakeClock {
  constructor(public t = Date.UTC(2026, 6, 10, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export async function freshStore(): Promise<TrustStore> {
  return (await openTestStore()).store;
}

export interface Harness {
  store: TrustStore;
  clock: FakeClock;
  settings: Settings;
  probe(origin: string, opts?: ProbeOptions): Promise<OriginReport>;
}

export async function harness(fetchImpl: FetchLike = (u, i) => fetch(u, i), settings: Partial<Settings> = {}): Promise<Harness & { fetch: FetchLike }> {
  const store = await freshStore();
  const clock = new FakeClock();
  const h = {
    store,
    clock,
    fetch: fetchImpl,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    probe(origin: string, opts?: ProbeOptions): Promise<OriginReport> {
      return probeOrigin(origin, { fetch: h.fetch, store, clock, settings: h.settings }, opts);
    },
  };
  return h;
}

/** The skill whose name (display, index or llms.txt) or URL path ends with `key`. */
export function skill(report: OriginReport, key: string): SkillReport {
  const found = report.skills.find((s) => s.name === key || s.names.index === key || s.names.llmsTxt === key || (s.url !== null && new URL(s.url).pathname.endsWith(key)));
  if (!found) throw new Error(`no skill ${key} in ${report.origin}: ${report.skills.map((s) => s.name).join(', ')}`);
  return found;
}

export function statuses(report: OriginReport): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of report.skills) out[s.name] = s.status;
  return out;
}

/** Approve a skill as the background does: bind the current lf digest (an archive's files too) and, when signed, the pinned key. */
export async function approveSkill(h: Harness, report: OriginReport, s: SkillReport): Promise<void> {
  if (!s.url || !s.actual) throw new Error('cannot approve a skill without bytes');
  const stored = await h.store.getSkill(report.origin, s.url, s.actual.lf, s.archive?.filesDigest ?? '');
  if (!stored) throw new Error('no stored bytes for ' + s.url);
  await h.store.approve(approvalFor(stored, report.key, s, h.clock.now()), stored, report.key.pinnedBy === 'policy' ? (report.key.pinned?.fingerprint ?? null) : null);
}
