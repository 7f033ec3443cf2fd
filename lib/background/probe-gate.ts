// The one gate every probe passes (PRODUCT.md §2.1, §10). Whatever asks for a probe — a page
// load, the popup's re-check, the hourly revalidation, an approval, a key decision, an import, a
// grant of site access — names its cause here and gets the same rules, in this order:
//
//   not http(s) → the organisation's policy is not known yet → paused → a private window (unless
//   the user allowed them) → deny list → allow-list-only → no site access
//
// A refused probe makes no request, writes nothing and keeps what was stored for the origin; its
// answer is a report in state `skipped` naming the rule. A probe about a private window (allowed
// by the user) is told so (`private`): it runs on a scheduler of its own over the private windows'
// memory store (lib/store/private-store.ts), never joined with a normal window's probe. The scheduler is made here and nowhere
// else, so no caller can reach it around the gate (test/unit/background/probe-gate.routes.test.ts
// drives every cause of PROBE_CAUSES against every rule).
import type { ManagedPolicy } from '../store/policy';
import { isHttpUrl, urlOf } from '../origin';
import { skippedReport } from '../report/skipped-report';
import { createScheduler, type Scheduler } from '../scheduler/scheduler';
import { shouldProbe, type SkipReason } from '../scheduler/should-probe';
import type { Clock, OriginReport, Settings } from '../types';
import type { SenderLike } from './sender';

/** Why a probe is asked for. Every caller of the scheduler names one. */
export const PROBE_CAUSES = {
  /** A top-level page load in a tab (after the page has loaded: page-events.ts). */
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

export type GateDecision = { probe: true; origin: string; private: boolean } | { probe: false; reason: GateReason };

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
  const url = urlOf(target);
  if (url === null || !isHttpUrl(url)) return { probe: false, reason: 'not-http' };
  if (facts.policy === null) return { probe: false, reason: 'policy-pending' };
  // Asked even when private windows may be probed: their results are kept in memory only.
  const incognito = await facts.incognito();
  const decision = shouldProbe(url.href, facts.settings, { incognito: incognito && !facts.settings.probeInPrivate });
  if (!decision.probe) return decision;
  if (!(await facts.mayRead(decision.origin))) return { probe: false, reason: 'no-site-access' };
  return { probe: true, origin: decision.origin, private: incognito };
}

export interface ProbeGateDeps {
  clock: Clock;
  /** The probe itself (lib/probe/probe-origin.ts and what follows it); `private`: about a private window. */
  run(origin: string, opts: { force: boolean; private: boolean }): Promise<OriginReport>;
  policy(): Promise<ManagedPolicy | null>;
  settings(): Promise<Settings>;
  privateRequest(origin: string, tabId: number | undefined, sender: SenderLike): Promise<boolean>;
  mayRead(origin: string): Promise<boolean>;
}

export interface ProbeGate {
  /**
   * The gate's decision alone (a navigation shows it on the badge before the page has loaded).
   * `retry`: what to run again when the refusal was only that the policy was not known yet (the
   * navigation's own handling, badge included); by default the probe.
   */
  check(cause: ProbeCause, target: string, subject: ProbeSubject, retry?: () => Promise<unknown>): Promise<GateDecision>;
  /** Probes when the gate lets it, else answers a `skipped` report that is not stored. */
  probe(cause: ProbeCause, target: string, subject: ProbeSubject): Promise<OriginReport>;
  /** The probe in flight for the origin (a private window's, when `priv`), joined; null when none runs (joining starts nothing). */
  join(origin: string, priv?: boolean): Promise<OriginReport | null> | null;
  inFlight(origin: string, priv?: boolean): boolean;
  /** Resolves once no probe is waiting for the gate or running (the probes an import starts and does not await). */
  idle(): Promise<void>;
  /** The organisation's policy is known at last: the probes it refused meanwhile are asked again (through the gate). */
  retryPending(): void;
}

/** At most this many probes refused while the policy was not known are asked again when it is. */
const PENDING_RETRIES = 32;

export function createProbeGate(deps: ProbeGateDeps): ProbeGate {
  const scheduler: Scheduler = createScheduler({ clock: deps.clock, run: (origin, opts) => deps.run(origin, { ...opts, private: false }) });
  /** The private windows' probes: one in flight per origin there too, apart from the normal ones. */
  const privateScheduler: Scheduler = createScheduler({ clock: deps.clock, run: (origin, opts) => deps.run(origin, { ...opts, private: true }) });
  const schedulerOf = (priv: boolean): Scheduler => (priv ? privateScheduler : scheduler);
  /**
   * Probes whose gate check is still running, by origin: a normal window's report asked meanwhile
   * joins them, but only once the check turned out to be about a normal window (`normal`): a private
   * window's result never answers a normal window.
   */
  const checking = new Map<string, { decided: Promise<OriginReport>; normal: Promise<boolean> }>();
  /** Probes refused because the policy was not known, by origin (the last cause and subject). */
  const pending = new Map<string, () => Promise<unknown>>();
  /** Retries running now, and private windows' probes (idle waits for them too). */
  const retrying = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>): void => {
    const running = p.catch(() => undefined);
    retrying.add(running);
    void running.then(() => retrying.delete(running));
  };

  async function check(cause: ProbeCause, target: string, subject: ProbeSubject, retry?: () => Promise<unknown>): Promise<GateDecision> {
    const [policy, settings] = await Promise.all([deps.policy(), deps.settings()]);
    const decision = await gateDecision(target, {
      policy,
      settings,
      incognito: async () => {
        if (subject.kind === 'tab') return subject.incognito;
        if (subject.kind === 'background') return false;
        return deps.privateRequest(new URL(target).origin, subject.tabId, subject.sender);
      },
      mayRead: deps.mayRead,
    });
    if (!decision.probe && decision.reason === 'policy-pending') {
      const origin = originOf(target);
      pending.delete(origin);
      pending.set(origin, retry ?? (() => gate.probe(cause, target, subject)));
      if (pending.size > PENDING_RETRIES) pending.delete(pending.keys().next().value as string);
    }
    return decision;
  }

  const gate: ProbeGate = {
    check,
    probe(cause, target, subject) {
      const origin = originOf(target);
      const checked = check(cause, target, subject);
      const decided = checked.then((decision) => {
        if (!decision.probe) return skippedReport(origin, decision.reason, deps.clock.now());
        // A private window's probe is not joined by a normal window's request (nor the other way).
        const run = schedulerOf(decision.private).probe(decision.origin, { force: PROBE_CAUSES[cause].force });
        if (decision.private && checking.get(origin)?.decided === decided) {
          checking.delete(origin);
          track(run);
        }
        return run;
      });
      if (!checking.has(origin)) {
        checking.set(origin, { decided, normal: checked.then((d) => !(d.probe && d.private)).catch(() => false) });
        // Kept until the probe it led to has ended (joining it then joins that probe).
        const done = (): void => {
          if (checking.get(origin)?.decided === decided) checking.delete(origin);
        };
        decided.then(done, done);
      }
      return decided;
    },
    join(origin, priv = false) {
      const s = schedulerOf(priv);
      if (s.inFlight(origin)) return s.probe(origin, { force: false });
      // A check still running may turn out either way; only a normal window's request joins it, and
      // only once it turned out to be a normal window's (else null: the caller reads its own store).
      const running = priv ? undefined : checking.get(origin);
      if (running === undefined) return null;
      return running.normal.then((normal) => (normal ? running.decided : null));
    },
    inFlight: (origin, priv = false) => schedulerOf(priv).inFlight(origin) || (!priv && checking.has(origin)),
    retryPending() {
      const again = [...pending.values()];
      pending.clear();
      for (const run of again) track(run());
    },
    async idle() {
      while (checking.size > 0 || retrying.size > 0) await Promise.allSettled([...[...checking.values()].map((c) => c.decided), ...retrying]);
    },
  };
  return gate;
}

function originOf(target: string): string {
  return urlOf(target)?.origin ?? target;
}
