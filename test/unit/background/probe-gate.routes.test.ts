// Every probe passes the one probe gate (PRODUCT.md §10). The causes come from their definition
// (PROBE_CAUSES): each has a trigger below that reaches it through the real service — a message, a
// browser event — and the Record type makes a new cause without a trigger fail to compile. Each
// trigger is shown to probe with no rule in force (so the test cannot pass by doing nothing), then
// to make no request and write no report under every rule of the gate.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REVALIDATE_ALARM, type BackgroundService } from '../../../lib/background/service';
import { PROBE_CAUSES, type ProbeCause } from '../../../lib/background/probe-gate';
import { writeBackup } from '../../../lib/store/backup/write';
import type { ProbeCommit, TrustStore } from '../../../lib/store/store-api';
import type { OriginReport, Settings } from '../../../lib/types';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { startServer, type TestServer } from '../../support/server';
import { sourceFiles } from '../../support/source-tree';
import { buildSite, digestOf, keyPair, lf, skillText } from '../../support/signed-sites';
import { HANG, RulesPlatform } from './fake-platform';
import { OPTIONS_PAGE, POPUP, startService } from './service-harness';

const K = keyPair(61);
const OTHER = keyPair(62);
const TAB = 5;

interface Env {
  server: TestServer;
  origin: string;
  platform: RulesPlatform;
  service: BackgroundService;
  ask<T>(msg: Record<string, unknown>, sender?: object): Promise<T>;
  /** Whether the trigger's own tab is a private one (the private-window rule sets it). */
  incognito: boolean;
  alpha: { url: string; digestLf: string };
}

type Subject = 'tab' | 'request' | 'background';

interface Trigger {
  /** Who the probe is about: a tab's own navigation, a request from a page or a menu, the background's own work. */
  subject: Subject;
  /** What must be true before the trigger can reach its probe (run with no rule in force). */
  setup?(env: Env): Promise<void>;
  fire(env: Env): Promise<unknown>;
}

async function probed(env: Env): Promise<void> {
  const r = await env.service.probe(env.origin);
  expect(r.state).toBe('done');
}

async function approveAlpha(env: Env): Promise<unknown> {
  return env.ask({ type: 'skillpin:approve', origin: env.origin, url: env.alpha.url, digestLf: env.alpha.digestLf, confirmUnverified: false, confirmCrossOrigin: false });
}

const TRIGGERS: Record<ProbeCause, Trigger> = {
  navigation: { subject: 'tab', fire: (env) => env.service.onNavigation(TAB, `${env.origin}/docs/page`, env.incognito) },
  recheck: { subject: 'request', fire: (env) => env.ask({ type: 'skillpin:probe', origin: env.origin, tabId: TAB }) },
  'first-report': { subject: 'request', fire: (env) => env.ask({ type: 'skillpin:skill-context', origin: env.origin, url: env.alpha.url }) },
  revalidate: {
    subject: 'background',
    setup: async (env) => {
      await probed(env);
      expect(await approveAlpha(env)).toMatchObject({ ok: true });
    },
    fire: (env) => env.service.onAlarm(REVALIDATE_ALARM),
  },
  'after-approval': { subject: 'request', setup: probed, fire: approveAlpha },
  'after-trust-key': {
    subject: 'request',
    setup: async (env) => {
      await probed(env);
      env.server.options.files = buildSite({ skills: [{ name: 'alpha' }], key: OTHER });
      const r = await env.service.probe(env.origin);
      expect(r.key.offered?.fingerprint).toBe(fingerprint(OTHER.publicKey));
    },
    fire: (env) => env.ask({ type: 'skillpin:trust-key', origin: env.origin, expectedFingerprint: fingerprint(K.publicKey), newFingerprint: fingerprint(OTHER.publicKey) }),
  },
  'after-key-revoke': { subject: 'request', setup: probed, fire: (env) => env.ask({ type: 'skillpin:key-revoke', origin: env.origin, fingerprint: fingerprint(OTHER.publicKey) }) },
  'after-import': {
    subject: 'background',
    fire: (env) => env.ask({ type: 'skillpin:import', json: writeBackup([{ origin: env.origin, key: K.b64, fingerprint: fingerprint(K.publicKey), firstSeen: 1, lastSeen: 1 }], [], 1) }),
  },
  'access-granted': {
    subject: 'tab',
    setup: async (env) => {
      env.platform.active = [{ id: TAB, url: `${env.origin}/docs/page`, incognito: false }];
    },
    fire: (env) => {
      env.platform.active = [{ id: TAB, url: `${env.origin}/docs/page`, incognito: env.incognito }];
      return env.service.onAccessChanged(['http://127.0.0.1/*']);
    },
  },
};

interface Rule {
  /** What the skipped report names (for the triggers whose answer is a report). */
  reason: string;
  /** The subjects it applies to (the private-window rule is about a window; the background's own work has none). */
  subjects: readonly Subject[];
  apply(env: Env): Promise<void>;
}

async function settings(env: Env, changes: Partial<Settings>): Promise<void> {
  expect(await env.ask({ type: 'skillpin:settings-update', changes }, OPTIONS_PAGE)).toMatchObject({ ok: true });
}

async function policy(env: Env, managed: unknown): Promise<void> {
  env.platform.managed = managed;
  await env.service.onManagedChanged();
}

const ALL: readonly Subject[] = ['tab', 'request', 'background'];

const RULES: Record<string, Rule> = {
  'the policy is not known yet': {
    reason: 'policy-pending',
    subjects: ALL,
    apply: async (env) => {
      // Managed storage stops answering, and nothing was kept from an earlier read.
      env.platform.session.clear();
      await policy(env, HANG);
    },
  },
  paused: { reason: 'paused', subjects: ALL, apply: (env) => settings(env, { paused: true }) },
  'paused by the organisation': { reason: 'paused', subjects: ALL, apply: (env) => policy(env, { probing: false }) },
  'a private window': {
    reason: 'private-window',
    subjects: ['tab', 'request'],
    apply: async (env) => {
      env.incognito = true;
      env.platform.tabs = [{ id: TAB, url: `${env.origin}/docs/page`, incognito: true }];
    },
  },
  'the user deny list': { reason: 'deny-listed', subjects: ALL, apply: (env) => settings(env, { denyList: [env.origin] }) },
  'the organisation deny list': { reason: 'deny-listed', subjects: ALL, apply: (env) => policy(env, { denyList: ['127.0.0.1'] }) },
  'allow-listed sites only': { reason: 'not-allow-listed', subjects: ALL, apply: (env) => settings(env, { allowListOnly: true, allowList: ['https://elsewhere.example'] }) },
  'no site access': {
    reason: 'no-site-access',
    subjects: ALL,
    apply: async (env) => {
      env.platform.granted = ['https://elsewhere.example/*'];
      await env.service.onAccessChanged([]);
    },
  },
};

let env: Env;
let reportWrites: string[];
let now: number;

beforeEach(async () => {
  const server = await startServer({ files: buildSite({ skills: [{ name: 'alpha' }], key: K }) });
  const platform = new RulesPlatform();
  reportWrites = [];
  now = Date.parse('2026-11-29T12:00:00Z');
  const countReports = (store: TrustStore): TrustStore =>
    new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        // A report is written alone (putReport) or with the rest of a probe (commitProbe).
        if (prop === 'putReport') {
          return (report: OriginReport) => {
            reportWrites.push(report.origin);
            return (v as (r: OriginReport) => Promise<void>).call(target, report);
          };
        }
        if (prop === 'commitProbe') {
          return (c: ProbeCommit) => {
            if (c.report) reportWrites.push(c.report.origin);
            return (v as (c: ProbeCommit) => Promise<unknown>).call(target, c);
          };
        }
        return v.bind(target);
      },
    });
  const service = await startService({ platform, name: `probe-paths-${Math.random()}`, now: () => now, wrapStore: countReports, policyWaitMs: 30 });
  const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;
  const url = `${server.origin}/skills/alpha/SKILL.md`;
  // No probe yet: a trigger that needs a stored report makes it in its setup; first-report needs none.
  env = { server, origin: server.origin, platform, service, ask, incognito: false, alpha: { url, digestLf: digestOf(lf(new TextEncoder().encode(skillText('alpha')))) } };
});

afterEach(async () => {
  await env.server.close();
});

/** Runs the trigger's setup, then `rule`, then the trigger; answers what the trigger made the gate do. */
async function run(cause: ProbeCause, rule: Rule | null): Promise<{ requests: number; reports: number; answer: unknown }> {
  const trigger = TRIGGERS[cause];
  await trigger.setup?.(env);
  await env.service.idle();
  if (rule) await rule.apply(env);
  // Past the quiet revisit window: a navigation probes rather than reusing the last report.
  now += 120_000;
  const requests = env.server.log.length;
  const reports = reportWrites.length;
  const answer = await trigger.fire(env);
  await env.service.idle();
  return { requests: env.server.log.length - requests, reports: reportWrites.length - reports, answer };
}

describe('the probe gate: every cause of PROBE_CAUSES', () => {
  it('has a trigger, and nothing else creates a scheduler', () => {
    expect(Object.keys(TRIGGERS).sort()).toEqual(Object.keys(PROBE_CAUSES).sort());
    const makers = sourceFiles(['lib', 'entrypoints', 'components']).filter((f) => /\bcreateScheduler\s*\(/.test(readFileSync(f, 'utf8')));
    expect(makers.sort()).toEqual(['lib/background/probe-gate.ts', 'lib/scheduler/scheduler.ts']);
  });

  for (const cause of Object.keys(PROBE_CAUSES) as ProbeCause[]) {
    describe(cause, () => {
      it('probes when no rule stands in the way', async () => {
        const out = await run(cause, null);
        expect(out.reports).toBeGreaterThan(0);
      });
      for (const [name, rule] of Object.entries(RULES)) {
        if (!rule.subjects.includes(TRIGGERS[cause].subject)) continue;
        it(`makes no request and writes no report under ${name}`, async () => {
          const out = await run(cause, rule);
          expect(out.requests).toBe(0);
          expect(reportWrites.slice(reportWrites.length - out.reports)).toEqual([]);
          const answer = out.answer as Partial<OriginReport> | null;
          if (answer && typeof answer === 'object' && 'state' in answer && answer.state === 'skipped') expect(answer.skippedBecause).toBe(rule.reason);
        });
      }
    });
  }
});
