// What one background worker keeps, as the handler slices (handlers/), the browser events
// (events.ts) and the hand-off gate see it: the shape of the state createWorkerState (create-worker-state.ts)
// builds. Only types, below every module that takes the worker state, so none of them imports its builder.
import type { AgentId } from '../desktop/protocol/limits';
import type { DesktopStatus, StateChangeKind } from '../messages';
import type { ManagedPolicy } from '../store/policy';
import type { PrivateStore } from '../store/private-store';
import type { TrustStore } from '../store/store-api';
import type { Clock, OriginReport } from '../types';
import type { BackgroundDeps, BackgroundPlatform } from './deps';
import type { ProbeGate } from './probe-gate';
import type { SenderLike } from './sender';
import type { SettingsCache } from './settings-cache';
import type { SiteAccess } from './site-access';
import type { ChangeMarker } from './state-change';

export interface WorkerState {
  deps: BackgroundDeps;
  platform: BackgroundPlatform;
  clock: Clock;
  store(): Promise<TrustStore>;
  /**
   * The private windows' store, in memory only (lib/store/private-store.ts): what a private window
   * probes or decides is kept there; it reads the normal store and never writes it.
   */
  privateStore: PrivateStore;
  /** The store a request or probe about a private window (`priv`) reads and writes. */
  storeOf(priv: boolean): Promise<TrustStore>;
  /**
   * Whether a request from an extension page or a menu (or a hand-off to a chat tab) is about a
   * private window, judged on the browser's tab list (private-request.ts); false for the
   * background's own (`sender` null). When the tabs cannot be listed the answer is yes: a probe
   * that should not happen costs more than a re-check that is refused.
   */
  isPrivate(origin: string, sender: SenderLike | null, tabId?: number): Promise<boolean>;
  /** The organisation's policy; null while it is not known (then nothing is probed, approved or handed off). */
  policy(): Promise<ManagedPolicy | null>;
  /** Managed storage changed: read the policy again. */
  forgetPolicy(): void;
  /** Why the policy is not known, when it is not (for the pages). */
  policyProblem(): string | null;
  /** Resolves once the policy is known, or after the readiness wait (deps.readyPolicyWaitMs, else READY_POLICY_WAIT_MS). */
  policySettled(): Promise<void>;
  settings: SettingsCache;
  /** The one way to a probe (probe-gate.ts). */
  probes: ProbeGate;
  /** Whether the user lets Skillpin read a site. */
  access: SiteAccess;
  /** The stored report of an origin (a private window's, when `priv`); one left in 'probing' by a stopped worker counts as none. */
  currentReport(origin: string, priv?: boolean): Promise<OriginReport | null>;
  /** Rebuilds the context menus from the approved skills and the chat sites (menus.ts). */
  refreshMenus(): Promise<void>;
  /** refreshMenus, a failure dropped (menus are a convenience). */
  refreshMenusSafe(): Promise<void>;
  /** Tells open pages that settings or trust state changed, and sets every open tab's badge from what is stored now. */
  announce(kind: StateChangeKind): Promise<void>;
  /** The last change of trust state or settings made through this worker (its start, at first). */
  stateChanged: ChangeMarker;
  /** The desktop mirror (desktop-sync.ts): told of every change that may change what is usable. */
  desktop: DesktopSync;
}

export interface DesktopCause {
  /** Only this site's report changed (a probe): nothing changes unless it has approved skills. */
  origin?: string;
  /** Sync even when the plan looks as it was (a change of settings or trust state, a start, a check). */
  force?: boolean;
}

export interface DesktopSync {
  /** Something changed that may change what is usable. Queued; never throws. */
  changed(cause?: DesktopCause): void;
  /** Resolves when every change asked for has been planned and no run is under way. */
  settled(): Promise<void>;
  status(): Promise<DesktopStatus>;
  /** Syncs now and says how it went (when the program cannot be reached: when that was found). */
  check(): Promise<{ status: DesktopStatus }>;
  /** The agent folders holding this skill, as the program last said (null: it holds none of it). */
  copiesOf(origin: string, url: string): Promise<AgentId[] | null>;
}
