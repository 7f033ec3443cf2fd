// The one gate every probe passes (PRODUCT.md §2.1, §10). Whatever asks for a probe — a page
// load, the popup's re-check, the hourly revalidation, an approval, a key decision, an import, a
// grant of site access — names its cause here and gets the same rules, in this order:
//
//   not http(s) → the organisation's policy is not known yet → paused → a private window (unless
//   the user allowed them) → deny list → allow-list-only → no site access
//
// A refused probe makes no request, writes nothing and keeps what was stored for the origin; its
// answer is a report in state `skipped` naming the rule. The scheduler is made here and nowhere
// else, so no caller can reach it around the gate (test/unit/background/probe-gate.paths.test.ts
// drives every cause of PROBE_CAUSES against every rule).
import type { ManagedPolicy } from '../trust/managed';
import { skippedReport } from '../report/skipped-report';
import { createScheduler, type Scheduler } from '../scheduler/scheduler';
import { shouldProbe, type SkipReason } from '../scheduler/should-probe';
import type { Clock, OriginReport, Settings } from '../types';
import type { SenderLike } from './sender';

/** Why a probe is asked for. Every caller of the scheduler names one. */
export const PROBE_CAUSES = {
  /** A top-level page load in a tab (after the page has loaded: lib/scheduler/load-gate.ts). */
  navigation: { force: false },
  /** The popup's Re-check, and the popup opened on an origin never probed. */
  recheck: { force: true },
  /** An extension page needs the report of an origin never probed (approve, trust a key, a skill context, an export). */
  'first-report': { force: false },
  /** The hourly revalidation of the origins with approvals. */
  revalidate: { force: false },
  /** After an approval or its withdrawal, so the report shows it. */
  'after-approval': { force: false },
  /** After the user trusted a new key: the skills are verified again under it. */
  'after-trust-key': { force: true },
  /** After the user revoked a key: skills signed by it are blocked at once. */
  'after-key-revoke': { force: false },
  /** After an import added approvals or pins for an origin. */
  'after-import': { force: false },
  /** The user granted site access (permissions.onAdded): the active tab's origin is probed. */
  'access-granted': { force: false },
} as const satisfies Record<string, { force: boolean }>;

export type ProbeCause = keyof typeof PROBE_CAUSES;

export type GateReason = SkipReason | 'policy-pending' | 'no-site-access';

/** Who a probe is about, for the private-window rule. */
export type ProbeSubject =
  /** A tab's own navigation: the browser's flag for that tab. */
  | { kind: 'tab'; incognito: boolean }
  /** A request from an extension page or a context menu: decided on the browser's tab list (private-request.ts). */
  | { kind: 'request'; tabId?: number; sender: SenderLike }
  /** The background's own work (the alarm, an import): no window is involved. */
  | { kind: 'background' };

export type GateDecision = { probe: true; origin: string } | { probe: false; reason: GateReason };

export interface GateFacts {
  /** Null while the organisation's policy is not known (lib/background/policy-cache.ts). */
  policy: ManagedPolicy | null;
  /** The effective settings (the user's, overlaid by the policy's). */
  settings: Settings;
  /** Whether the probe is about a private window; asked only when it matters. */
  incognito(): Promise<boolean>;
  /** Whether the user lets Skillpin read the origin; asked last. */
  mayRead(origin: string): Promise<boolean>;
}

/** The rules, in order. `target` is an origin or a page URL. */
export async function gateDecision(target: string, facts: GateFacts): Promise<GateDecision> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { probe: false, reason: 'not-http' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { probe: false, reason: 'not-http' };
  if (facts.policy === null) return { probe: false, reason: 'policy-pending' };
  const incognito = facts.settings.probeInPrivate ? false : await facts.incognito();
  const decision = shouldProbe(url.href, facts.settings, { incognito });
  if (!decision.probe) return decision;
  if (!(await facts.mayRead(decision.origin))) return { probe: false, reason: 'no-site-access' };
  return decision;
}

export interface ProbeGateDeps {
  clock: Clock;
  /** The probe itself (lib/engine/probe-origin.ts and what follows it). */
  run(origin: string, opts: { force: boolean }): Promise<OriginReport>;
  policy(): Promise<ManagedPolicy | null>;
  settings(): Promise<Settings>;
  privateRequest(origin: string, tabId: number | undefined, sender: SenderLike): Promise<boolean>;
  mayRead(origin: string): Promise<boolean>;
}

export interface ProbeGate {
  /** The gate's decision alone (a navigation shows it on the badge before the page has loaded). */
  check(cause: ProbeCause, target: string, subject: ProbeSubject): Promise<GateDecision>;
  /** Probes when the gate lets it, else answers a `skipped` report that is not stored. */
  probe(cause: ProbeCause, target: string, subject: ProbeSubject): Promise<OriginReport>;
  /** The probe in flight for the origin, joined; null when none runs (joining starts nothing). */
  join(origin: string): Promise<OriginReport> | null;
  inFlight(origin: string): boolean;
  /** Resolves once no probe is waiting for the gate or running (the probes an import starts and does not await). */
  idle(): Promise<void>;
  /** The organisation's policy is known at last: the probes it refused meanwhile are asked again (through the gate). */
  retryPending(): void;
}

/** At most this many probes refused while the policy was not known are asked again when it is. */
const PENDING_RETRIES = 32;

export function createProbeGate(deps: ProbeGateDeps): ProbeGate {
  const scheduler: Scheduler = createScheduler({ clock: deps.clock, run: deps.run });
  /** Probes whose gate check is still running, by origin: a report asked meanwhile joins them. */
  const checking = new Map<string, Promise<OriginReport>>();
  /** Probes refused because the policy was not known, by origin (the last cause and subject). */
  const pending = new Map<string, { cause: ProbeCause; target: string; subject: ProbeSubject }>();

  async function check(cause: ProbeCause, target: string, subject: ProbeSubject): Promise<GateDecision> {
    const [policy, settings] = await Promise.all([deps.policy(), deps.settings()]);
    const decision = await gateDecision(target, {
      policy,
      settings,
      incognito: async () => {
        if (subject.kind === 'tab') return subject.incognito;
        if (subject.kind === 'background') return false;
        const origin = new URL(target).origin;
        return deps.privateRequest(origin, subject.tabId, subject.sender);
      },
      mayRead: deps.mayRead,
    });
    if (!decision.probe && decision.reason === 'policy-pending') {
      const origin = originOf(target);
      pending.delete(origin);
      pending.set(origin, { cause, target, subject });
      if (pending.size > PENDING_RETRIES) pending.delete(pending.keys().next().value as string);
    }
    return decision;
  }

  const gate: ProbeGate = {
    check,
    probe(cause, target, subject) {
      const origin = originOf(target);
      const decided = check(cause, target, subject).then((decision) => {
        if (decision.probe) return scheduler.probe(decision.origin, { force: PROBE_CAUSES[cause].force });
        return skippedReport(origin, decision.reason, deps.clock.now());
      });
      if (!checking.has(origin)) {
        checking.set(origin, decided);
        // Kept until the probe it led to has ended (joining it then joins that probe).
        const done = (): void => {
          if (checking.get(origin) === decided) checking.delete(origin);
        };
        decided.then(done, done);
      }
      return decided;
    },
    join(origin) {
      if (scheduler.inFlight(origin)) return scheduler.probe(origin, { force: false });
      return checking.get(origin) ?? null;
    },
    inFlight: (origin) => scheduler.inFlight(origin) || checking.has(origin),
    retryPending() {
      const again = [...pending.values()];
      pending.clear();
      for (const p of again) void gate.probe(p.cause, p.target, p.subject).catch(() => undefined);
    },
    async idle() {
      while (checking.size > 0) await Promise.allSettled([...checking.values()]);
    },
  };
  return gate;
}

function originOf(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target;
  }
}
