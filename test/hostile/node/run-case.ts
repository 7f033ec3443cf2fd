// Plays one hostile case through the engine under node: serves its site on 127.0.0.1, probes it
// (each stage in turn, approving where the stage says), records the observed outcome and checks
// the invariants every case must keep.
import { approvalFor } from '../../../lib/probe/approved-bytes';
import { approvalBindsContent, contentOfSkill } from '../../../lib/probe/status';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS, isApprovable, type FetchLike, type OriginReport, type SkillStatus } from '../../../lib/types';
import { expectedProjection, expectedText, observe, projectionText, sameProjection, skillKey } from '../outcome';
import { ORIGIN_HEADER, startHostileServer } from '../server';
import { bytesOf, keyPair, lfDigest, rawDigest, seed, skillText } from '../site-kit';
import { OTHER_ORIGIN, PUBLIC_ORIGIN, type HostileCase, type HostileSite, type ScenarioEnv, type ServedSite } from '../types';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { FakeClock } from '../../support/engine-harness';
import { openTestStore } from '../../support/trust-store';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface CaseResult {
  id: string;
  category: string;
  title: string;
  browserOnly: boolean;
  browser: { include: boolean; assert: string | null };
  expected: string;
  observed: string;
  /** Observed equals expected and every invariant held. */
  pass: boolean;
  /** Invariant violations and setup problems (empty when none). */
  problems: string[];
  ms: number;
}

// ---------------------------------------------------------------------------
// The bystander: an unrelated origin whose pin and approval must survive every case
// ---------------------------------------------------------------------------

const BYSTANDER = 'https://bystander.example';
const BYSTANDER_URL = `${BYSTANDER}/skills/helper/SKILL.md`;
const BYSTANDER_BYTES = bytesOf(skillText('helper'));
const BYSTANDER_KEY = keyPair(seed(200));
const BYSTANDER_FP = fingerprint(BYSTANDER_KEY.publicKey);

export async function newStore(): Promise<TrustStore> {
  const { store } = await openTestStore();
  const now = Date.UTC(2026, 0, 1);
  await store.pinIfAbsent(BYSTANDER, BYSTANDER_KEY.publicKeyB64, BYSTANDER_FP, now);
  const digestLf = lfDigest(BYSTANDER_BYTES);
  const digestRaw = rawDigest(BYSTANDER_BYTES);
  await store.approve(
    { origin: BYSTANDER, url: BYSTANDER_URL, digestLf, digestRaw, keyFingerprint: BYSTANDER_FP, statusAtApproval: 'verified-signed', name: 'helper', approvedAt: now },
    { origin: BYSTANDER, url: BYSTANDER_URL, digestLf, digestRaw, bytes: BYSTANDER_BYTES, storedAt: now },
  );
  return store;
}

export async function bystanderIntact(store: TrustStore): Promise<string | null> {
  try {
    const pin = await store.getPin(BYSTANDER);
    if (!pin || pin.key !== BYSTANDER_KEY.publicKeyB64 || pin.fingerprint !== BYSTANDER_FP) return 'the bystander pin changed or vanished';
    const approval = await store.getApproval(BYSTANDER, BYSTANDER_URL);
    if (!approval || approval.digestLf !== lfDigest(BYSTANDER_BYTES) || approval.keyFingerprint !== BYSTANDER_FP) return 'the bystander approval changed or vanished';
    const stored = await store.getSkill(BYSTANDER, BYSTANDER_URL, approval.digestLf);
    if (!stored || stored.bytes.byteLength !== BYSTANDER_BYTES.byteLength) return 'the bystander bytes changed or vanished';
    return null;
  } catch (e) {
    return `reading the bystander failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

// ---------------------------------------------------------------------------
// Fetch: public origins mapped onto loopback servers; anything else is a stray request
// ---------------------------------------------------------------------------

export function mappedFetch(map: Record<string, ServedSite>, stray: string[]): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const target = map[url.origin];
    if (!target) {
      stray.push(url.href);
      throw new TypeError(`the test network has no route to ${url.origin}`);
    }
    const headers = new Headers(init.headers);
    headers.set(ORIGIN_HEADER, url.origin);
    return fetch(target.origin + url.pathname + url.search, { ...init, headers });
  };
}

// ---------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------

/** Problems with one report that every case must avoid. */
export async function reportProblems(report: OriginReport, store: TrustStore, judgedAt: number | null): Promise<string[]> {
  const problems: string[] = [];
  if (report.state !== 'done' && report.state !== 'error') problems.push(`report state is ${report.state}`);
  for (const s of report.skills) {
    const key = skillKey(s);
    if (s.approval.state === 'approved') {
      if (!isApprovable(s.status)) problems.push(`${key}: approved while ${s.status}`);
      const content = contentOfSkill(s);
      if (content && s.approval.approval && !approvalBindsContent(s.approval.approval, content).binds) problems.push(`${key}: approved for other bytes than the current ones`);
    }
    const refused: SkillStatus[] = ['digest-mismatch', 'bad-signature', 'sources-disagree', 'invalid', 'too-large', 'unsupported', 'fetch-failed'];
    if (judgedAt !== null && s.url && refused.includes(s.status)) {
      try {
        const latest = await store.getLatestSkill(report.origin, s.url);
        if (latest && latest.storedAt >= judgedAt) problems.push(`${key}: bytes stored as verified although ${s.status}`);
      } catch {
        // A store that refuses reads (fault cases) cannot have stored anything either.
      }
    }
  }
  return problems;
}

export async function approve(store: TrustStore, report: OriginReport, key: string, now: number): Promise<string | null> {
  const s = report.skills.find((x) => skillKey(x) === key);
  if (!s) return `setup: no skill ${key} to approve`;
  if (!isApprovable(s.status) || !s.url || !s.actual) return `setup: ${key} is ${s.status}, not approvable`;
  const stored = await store.getSkill(report.origin, s.url, s.actual.lf, s.archive?.filesDigest ?? '');
  if (!stored) return `setup: no stored bytes for ${key}`;
  await store.approve(approvalFor(stored, report.key, s, now), stored);
  return null;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: `did not settle within ${ms} ms` }), ms);
    p.then(
      (value) => {
        clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (e: unknown) => {
        clearTimeout(timer);
        resolve({ ok: false, error: `threw: ${e instanceof Error ? e.message : String(e)}` });
      },
    );
  });
}

function baseResult(c: HostileCase, expected: string): CaseResult {
  return {
    id: c.id,
    category: c.category,
    title: c.title,
    browserOnly: c.browserOnly === true,
    browser: { include: c.browser?.include === true, assert: c.browser?.assert ?? null },
    expected,
    observed: '',
    pass: false,
    problems: [],
    ms: 0,
  };
}

// ---------------------------------------------------------------------------
// Site cases
// ---------------------------------------------------------------------------

/** Default budget for one probe of a case that needs no real waiting. */
const PROBE_BUDGET_MS = 12_000;

export async function runSiteCase(c: HostileCase): Promise<CaseResult> {
  const started = performance.now();
  const expectedP = expectedProjection(c.expected);
  const result = baseResult(c, expectedText(c));
  const site: HostileSite = await (c.site as () => HostileSite | Promise<HostileSite>)();
  const served = await startHostileServer(site);
  const store = await newStore();
  const clock = new FakeClock();
  const stray: string[] = [];
  const loopback = c.origin === 'loopback';
  const origin = loopback ? served.origin : PUBLIC_ORIGIN;
  const fetchImpl = mappedFetch(loopback ? { [served.origin]: served } : { [PUBLIC_ORIGIN]: served, [OTHER_ORIGIN]: served }, stray);
  const deps = { fetch: fetchImpl, store, clock, settings: { ...DEFAULT_SETTINGS } };
  const reports: OriginReport[] = [];
  let judgedAt = 0;
  let elapsedMs = 0;
  try {
    for (let i = 0; i < site.stages.length; i++) {
      served.setStage(i);
      judgedAt = clock.now();
      const t0 = performance.now();
      const out = await withDeadline(probeOrigin(origin, deps), (c.slowMs ?? PROBE_BUDGET_MS) + 2000);
      elapsedMs = Math.round(performance.now() - t0);
      if (!out.ok) {
        result.problems.push(`stage ${i}: the probe ${out.error}`);
        break;
      }
      reports.push(out.value);
      for (const key of site.stages[i]?.approveAfter ?? []) {
        const problem = await approve(store, out.value, key, clock.now());
        if (problem) result.problems.push(`stage ${i}: ${problem}`);
      }
      if (i < site.stages.length - 1) clock.advance(DAY_MS + 60 * 60 * 1000);
    }
    const report = reports[reports.length - 1];
    if (report && reports.length === site.stages.length) {
      for (const [i, r] of reports.entries()) {
        for (const p of await reportProblems(r, store, i === reports.length - 1 ? judgedAt : null)) result.problems.push(`stage ${i}: ${p}`);
      }
      const observed = await observe(c.expected, { report, reports, store, log: served.log, origin, elapsedMs });
      result.observed = projectionText(observed, c.expected.custom?.text);
      result.pass = sameProjection(observed, expectedP);
    } else {
      result.observed = 'no report';
    }
    const bystander = await bystanderIntact(store);
    if (bystander) result.problems.push(bystander);
    const traps = served.trapHits();
    if (traps.length > 0) result.problems.push(`trap URLs requested: ${traps.map((t) => t.path).join(', ')}`);
    if (stray.length > 0) result.problems.push(`requests left the test network: ${[...new Set(stray)].slice(0, 5).join(', ')}`);
  } catch (e) {
    result.problems.push(`runner error: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    store.close();
    await served.close();
  }
  if (result.problems.length > 0) result.pass = false;
  result.ms = Math.round(performance.now() - started);
  return result;
}

// ---------------------------------------------------------------------------
// Scenario cases (faults)
// ---------------------------------------------------------------------------

export async function runScenarioCase(c: HostileCase): Promise<CaseResult> {
  const started = performance.now();
  const scenario = c.scenario;
  const result = baseResult(c, expectedText(c));
  if (!scenario) return { ...result, problems: ['no scenario'] };
  const servers: ServedSite[] = [];
  const stray: string[] = [];
  const clock = new FakeClock();
  const env: ScenarioEnv = {
    newStore,
    serve: async (site) => {
      const s = await startHostileServer(site);
      servers.push(s);
      return s;
    },
    mappedFetch: (map) => mappedFetch(map, stray),
    clock,
    bystanderIntact,
    approve: (store, report, key) => approve(store, report, key, clock.now()),
  };
  try {
    const out = await withDeadline(scenario.run(env), (c.slowMs ?? 30_000) + 2000);
    if (!out.ok) {
      result.problems.push(`the scenario ${out.error}`);
      result.observed = 'no outcome';
    } else {
      result.observed = out.value.observed;
      result.problems.push(...out.value.problems);
      for (const r of out.value.reports) result.problems.push(...(await reportProblems(r, out.value.stores[0] as TrustStore, null)));
      for (const s of out.value.stores) {
        const b = await bystanderIntact(s);
        if (b) result.problems.push(b);
        s.close();
      }
      result.pass = result.observed === scenario.expectedText;
    }
    for (const s of servers) if (s.trapHits().length > 0) result.problems.push('trap URLs requested');
    if (stray.length > 0) result.problems.push(`requests left the test network: ${[...new Set(stray)].slice(0, 5).join(', ')}`);
  } catch (e) {
    result.problems.push(`runner error: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    for (const s of servers) await s.close();
  }
  if (result.problems.length > 0) result.pass = false;
  result.ms = Math.round(performance.now() - started);
  return result;
}

export function runCase(c: HostileCase): Promise<CaseResult> {
  return c.scenario ? runScenarioCase(c) : runSiteCase(c);
}
