// Faults (node-only scenarios): a store that runs out of quota in the middle of a probe, a store
// that cannot be read, a fetch that throws oddly, two probes racing to pin different keys for
// one origin, and a burst of 200 probes across 50 origins through the scheduler.
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { createScheduler } from '../../../lib/scheduler/scheduler';
import { StoreError } from '../../../lib/store/errors';
import type { ProbeCommit, TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS, type FetchLike, type OriginReport } from '../../../lib/types';
import { one } from './common';
import { keyPair, published, seed, signedTwo, stageOf } from '../site-kit';
import type { HostileCase, Scenario, ScenarioEnv, ServedSite } from '../types';

const DAY = 24 * 60 * 60 * 1000;

/**
 * A store method, or one part of a probe's commit: `commitProbe:cache` fails a commit that carries
 * cache entries (one transaction: nothing of it is written), as a store would that cannot write them.
 */
type StoreMethod = keyof TrustStore | 'commitProbe:cache' | 'commitProbe:skills' | 'commitProbe:report';

function failsCommit(methods: StoreMethod[], c: ProbeCommit): boolean {
  return (
    methods.includes('commitProbe') ||
    (methods.includes('commitProbe:cache') && c.cache.length > 0) ||
    (methods.includes('commitProbe:skills') && c.skills.length > 0) ||
    (methods.includes('commitProbe:report') && c.report !== null)
  );
}

/** A store whose `methods` throw `error` once `armed` is set. */
function faultyStore(inner: TrustStore, methods: StoreMethod[], error: () => unknown): { store: TrustStore; arm(): void; hits(): number } {
  let armed = false;
  let hits = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver): unknown {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (armed && prop === 'commitProbe') {
        return (c: ProbeCommit): unknown => {
          if (!failsCommit(methods, c)) return fn.call(target, c);
          hits += 1;
          return Promise.reject(error());
        };
      }
      if (armed && methods.includes(prop as StoreMethod)) {
        return (): Promise<never> => {
          hits += 1;
          return Promise.reject(error());
        };
      }
      return (...args: unknown[]): unknown => fn.apply(target, args);
    },
  });
  return { store, arm: () => (armed = true), hits: () => hits };
}

const quota = (): StoreError => new StoreError('quota-exceeded', 'storage quota exceeded: QuotaExceededError', { cause: new Error('QuotaExceededError') });

function mentions(report: OriginReport, pattern: RegExp): boolean {
  if (report.diagnostics.some((d) => pattern.test(d.message))) return true;
  return report.skills.some((s) => pattern.test(s.statusMessage) || s.diagnostics.some((d) => pattern.test(d.message)));
}

const ORIGIN = 'https://fault.example';

function deps(env: ScenarioEnv, fetchImpl: FetchLike, store: TrustStore): Parameters<typeof probeOrigin>[1] {
  return { fetch: fetchImpl, store, clock: env.clock, settings: { ...DEFAULT_SETTINGS } };
}

/**
 * A good signed probe, alpha approved; then the store fails `methods` during a second probe
 * (whose site is `second`, default: the same site).
 */
function quotaScenario(methods: StoreMethod[], opts: { second?: (seedByte: number) => ReturnType<typeof stageOf>; force?: boolean } = {}): Scenario {
  return {
    expectedText: 'quota reported in the report; pin kept; alpha approval kept; alpha bytes kept; nothing thrown',
    async run(env) {
      const site = signedTwo(70);
      const served = await env.serve({ stages: [stageOf(site), opts.second ? opts.second(70) : stageOf(site)] });
      const inner = await env.newStore();
      const faulty = faultyStore(inner, methods, quota);
      const fetchImpl = env.mappedFetch({ [ORIGIN]: served });
      const problems: string[] = [];
      const first = await probeOrigin(ORIGIN, deps(env, fetchImpl, faulty.store));
      const approval = await env.approve(inner, first, 'alpha');
      if (approval) problems.push(approval);
      const approvedDigest = (await inner.getApproval(ORIGIN, `${ORIGIN}/skills/alpha/SKILL.md`))?.digestLf ?? null;
      env.clock.advance(DAY + 3_600_000);
      served.setStage(1);
      faulty.arm();
      let second: OriginReport | null = null;
      let thrown = false;
      try {
        second = await probeOrigin(ORIGIN, deps(env, fetchImpl, faulty.store), { force: opts.force === true });
      } catch {
        thrown = true;
      }
      if (faulty.hits() === 0) problems.push(`setup: no ${methods.join('/')} call was made during the probe`);
      const pin = await inner.getPin(ORIGIN);
      const kept = await inner.getApproval(ORIGIN, `${ORIGIN}/skills/alpha/SKILL.md`);
      const bytes = approvedDigest ? await inner.getSkill(ORIGIN, `${ORIGIN}/skills/alpha/SKILL.md`, approvedDigest) : null;
      const parts = [
        second && mentions(second, /quota/i) ? 'quota reported in the report' : 'quota not reported',
        pin && pin.key === keyPair(seed(70)).publicKeyB64 ? 'pin kept' : 'pin lost',
        kept && kept.digestLf === approvedDigest ? 'alpha approval kept' : 'alpha approval lost',
        bytes ? 'alpha bytes kept' : 'alpha bytes lost',
        thrown ? 'the probe threw' : 'nothing thrown',
      ];
      return { observed: parts.join('; '), reports: second ? [first, second] : [first], stores: [inner], problems };
    },
  };
}

/** Two sites signed by different keys, both presented as one origin, probed at the same time. */
const raceScenario: Scenario = {
  expectedText: "5 rounds: one probe pinned-now and the other changed every time; the stored pin is the winner's key; the loser's skills are key-changed",
  async run(env) {
    const a = signedTwo(80);
    const b = signedTwo(81);
    const sa = await env.serve(one(stageOf(a)));
    const sb = await env.serve(one(stageOf(b)));
    const origin = 'https://race.example';
    const problems: string[] = [];
    const reports: OriginReport[] = [];
    const stores: TrustStore[] = [];
    const facts: string[] = [];
    for (let round = 0; round < 5; round++) {
      const store = await env.newStore();
      stores.push(store);
      const [ra, rb] = await Promise.all([
        probeOrigin(origin, deps(env, env.mappedFetch({ [origin]: sa }), store), { force: true }),
        probeOrigin(origin, deps(env, env.mappedFetch({ [origin]: sb }), store), { force: true }),
      ]);
      reports.push(ra, rb);
      const states = [ra.key.state, rb.key.state].sort().join('+');
      const pin = await store.getPin(origin);
      const winner = ra.key.state === 'pinned-now' ? ra : rb.key.state === 'pinned-now' ? rb : null;
      const loser = winner === ra ? rb : ra;
      const pinOk = winner !== null && pin !== null && pin.key === winner.key.offered?.key;
      const loserOk = loser.skills.length > 0 && loser.skills.every((s) => s.status === 'key-changed');
      const winnerOk = winner !== null && winner.skills.every((s) => s.status === 'verified-signed');
      facts.push(`${states}${pinOk ? '' : ' pin?'}${loserOk ? '' : ' loser?'}${winnerOk ? '' : ' winner?'}`);
    }
    const allGood = facts.every((f) => f === 'changed+pinned-now');
    return {
      observed: allGood ? "5 rounds: one probe pinned-now and the other changed every time; the stored pin is the winner's key; the loser's skills are key-changed" : `rounds: ${facts.join(', ')}`,
      reports,
      stores,
      problems,
    };
  },
};

/** 200 probes for 50 origins at once through the scheduler. */
const burstScenario: Scenario = {
  expectedText: '200 probes settled; 50 engine runs for 50 origins; at most 1 per origin and 4 at once; 0 reports probing; 0 origins in flight; 50 origins pinned',
  async run(env) {
    const site = signedTwo(90);
    const served = await env.serve(one(stageOf(site)));
    const origins = Array.from({ length: 50 }, (_, i) => `https://o${i}.burst.example`);
    const map: Record<string, ServedSite> = {};
    for (const o of origins) map[o] = served;
    const store = await env.newStore();
    const fetchImpl = env.mappedFetch(map);
    const inFlight = new Map<string, number>();
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    let maxPerOrigin = 0;
    const scheduler = createScheduler({
      clock: env.clock,
      maxConcurrent: 4,
      run: async (origin, opts) => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        const n = (inFlight.get(origin) ?? 0) + 1;
        inFlight.set(origin, n);
        maxPerOrigin = Math.max(maxPerOrigin, n);
        try {
          return await probeOrigin(origin, deps(env, fetchImpl, store), { force: opts.force });
        } finally {
          active -= 1;
          inFlight.set(origin, (inFlight.get(origin) ?? 1) - 1);
        }
      },
    });
    const all = Array.from({ length: 200 }, (_, i) => scheduler.probe(origins[i % 50] as string));
    const settled = await Promise.allSettled(all);
    const reports = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const stored = await store.listReports();
    const probing = stored.filter((r) => r.state === 'probing').length + reports.filter((r) => r.state === 'probing').length;
    const pins = (await store.listPins()).filter((p) => p.origin.endsWith('.burst.example')).length;
    const observed = `${reports.length} probes settled; ${runs} engine runs for ${new Set(reports.map((r) => r.origin)).size} origins; at most ${maxPerOrigin} per origin and ${maxActive} at once; ${probing} reports probing; ${scheduler.inFlightCount()} origins in flight; ${pins} origins pinned`;
    return { observed, reports: [...new Map(reports.map((r) => [r.origin, r])).values()], stores: [store], problems: [] };
  },
};

/** A store that cannot be read at all: the probe ends in `error` and keeps nothing half-written. */
const unreadableStore: Scenario = {
  expectedText: 'report state error with engine-error; nothing thrown; no pin written',
  async run(env) {
    const site = signedTwo(71);
    const served = await env.serve(one(stageOf(site)));
    const inner = await env.newStore();
    const faulty = faultyStore(inner, ['getOriginState', 'getCache', 'getPin', 'getReport'], () => new StoreError('unknown', 'the database is gone'));
    faulty.arm();
    let report: OriginReport | null = null;
    let thrown = false;
    try {
      report = await probeOrigin(ORIGIN, deps(env, env.mappedFetch({ [ORIGIN]: served }), faulty.store));
    } catch {
      thrown = true;
    }
    const pin = await inner.getPin(ORIGIN);
    const codes = report ? report.diagnostics.map((d) => d.code) : [];
    return {
      observed: `report state ${report?.state ?? 'none'}${codes.includes('engine-error') ? ' with engine-error' : ''}; ${thrown ? 'the probe threw' : 'nothing thrown'}; ${pin ? 'a pin was written' : 'no pin written'}`,
      reports: report ? [report] : [],
      stores: [inner],
      problems: [],
    };
  },
};

/** A fetch that rejects with odd values, and one whose body stream errors half way. */
const oddFetch: Scenario = {
  expectedText: 'non-Error rejections: llms-txt transient, index transient; erroring body: skill fetch-failed; nothing thrown',
  async run(env) {
    const site = signedTwo(72);
    const served = await env.serve(one(stageOf(site)));
    const store1 = await env.newStore();
    let n = 0;
    const rejecting: FetchLike = () => {
      n += 1;
      // Deliberately not Error objects.
      return n % 2 === 0 ? Promise.reject(undefined) : Promise.reject('a string');
    };
    const problems: string[] = [];
    let thrown = false;
    let r1: OriginReport | null = null;
    let r2: OriginReport | null = null;
    try {
      r1 = await probeOrigin(ORIGIN, deps(env, rejecting, store1));
    } catch {
      thrown = true;
    }
    const store2 = await env.newStore();
    const base = env.mappedFetch({ [ORIGIN]: served });
    const breaking: FetchLike = async (url, init) => {
      const res = await base(url, init);
      if (!url.endsWith('/SKILL.md')) return res;
      const bytes = new Uint8Array(await res.arrayBuffer());
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 10));
          controller.error(new Error('connection reset'));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/markdown' } });
    };
    try {
      r2 = await probeOrigin(ORIGIN, deps(env, breaking, store2));
    } catch {
      thrown = true;
    }
    const src = (r: OriginReport | null, kind: string): string => r?.sources.find((s) => s.kind === kind)?.outcome ?? 'none';
    const skillStatuses = [...new Set((r2?.skills ?? []).map((s) => s.status))].join('/');
    const observed = `non-Error rejections: llms-txt ${src(r1, 'llms-txt')}, index ${src(r1, 'index')}; erroring body: skill ${skillStatuses || 'none'}; ${thrown ? 'the probe threw' : 'nothing thrown'}`;
    return { observed, reports: [r1, r2].filter((r): r is OriginReport => r !== null), stores: [store1, store2], problems };
  },
};

function fault(id: string, title: string, scenario: Scenario): HostileCase {
  return { id, category: 'faults', title, scenario, expected: {} };
}

export const FAULT_CASES: HostileCase[] = [
  fault('quota-on-cache-write', 'The store throws QuotaExceeded on every probe-cache write during a probe', quotaScenario(['putCache', 'putCacheEntries', 'commitProbe:cache'], { force: true })),
  fault(
    'quota-on-skill-write',
    'The store throws QuotaExceeded when new verified bytes are written',
    quotaScenario(['putSkill', 'putSkills', 'commitProbe:skills'], {
      second: (s) =>
        stageOf(
          published({
            seed: seed(s),
            skills: [
              { name: 'alpha', description: 'The alpha skill.' },
              { name: 'beta', description: 'The beta skill.' },
              { name: 'gamma', description: 'A new skill.' },
            ],
          }),
        ),
    }),
  ),
  fault('quota-on-report-write', 'The store throws QuotaExceeded when the report is saved', quotaScenario(['putReport', 'commitProbe:report'])),
  fault(
    'quota-on-every-write',
    'Every write of the store throws QuotaExceeded during a probe',
    quotaScenario(['commitProbe', 'putCache', 'putCacheEntries', 'putSkill', 'putSkills', 'putReport', 'pinIfAbsent', 'approve', 'replacePin'], { force: true }),
  ),
  fault('store-unreadable', 'The store cannot be read (cache, pins, reports)', unreadableStore),
  fault('fetch-rejects-with-non-errors', 'fetch rejects with undefined and strings; a body stream errors half way', oddFetch),
  fault('race-two-keys-one-origin', 'Two concurrent probes of one origin see two different keys', raceScenario),
  fault('burst-200-probes-50-origins', '200 probes across 50 origins in one burst through the scheduler', burstScenario),
];
