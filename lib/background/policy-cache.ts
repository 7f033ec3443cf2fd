// The organisation's policy (docs/policies.md), read from managed storage once and again after
// it changes (forget). It fails closed: a policy that is not known is never taken as "no policy".
//
// Chromium can leave storage.managed.get unanswered while a tab's page is still loading (seen
// with a page whose image never arrives). A caller waits at most POLICY_WAIT_MS; then it gets the
// last policy this browser session read (kept in session storage, so a restarted worker has it),
// or, when none was ever read, `null`: the gates then probe, approve, pin and hand off nothing
// (PRODUCT.md §10) until a read answers. The read in flight is kept for the callers after it; one
// that has not answered for POLICY_RETRY_MS is asked again beside it, and whichever answers first
// wins. A read that fails (not "no policy": the platform answers undefined for that) counts as no answer.
import { noPolicy, parseManaged, type ManagedPolicy } from '../store/policy';
import { t } from '../i18n';
import type { BackgroundPlatform } from './deps';

/** How long a caller waits for managed storage before it uses the last known policy. */
export const POLICY_WAIT_MS = 2000;
/** A read unanswered this long is asked again. */
export const POLICY_RETRY_MS = 5000;
/** How long the worker's readiness (and the `skillpin:ready` answer) waits for a known policy. */
export const READY_POLICY_WAIT_MS = 10_000;
/** The session-storage key of the last policy read (what managed storage answered, as read). */
export const POLICY_SESSION_KEY = 'skillpin:policy';

export interface PolicyCache {
  /** The policy, or null while none is known (a read has not answered and none was kept). */
  get(): Promise<ManagedPolicy | null>;
  /** Managed storage changed: the next get reads it again (the kept copy stays the fallback). */
  forget(): void;
  /** Why the last read gave no policy (its error, or that it did not answer in time); null after a good read. */
  problem(): string | null;
  /** Resolves once a policy is known, or after `maxMs` (the worker's readiness waits for it). */
  settled(maxMs: number): Promise<void>;
}

/** The raw policy object (absent: no policy can apply) and session storage (absent: nothing is kept across workers). */
export type PolicySource = Pick<BackgroundPlatform, 'getManaged' | 'getSession' | 'setSession'>;

export interface PolicyCacheOptions {
  now(): number;
  /** A policy became known after callers were told none was: open pages and menus follow. */
  onArrived?(): void;
  waitMs?: number;
  retryMs?: number;
}

type Kept = { raw: unknown };

export function policyCache(source: PolicySource, opts: PolicyCacheOptions): PolicyCache {
  const waitMs = opts.waitMs ?? POLICY_WAIT_MS;
  const retryMs = opts.retryMs ?? POLICY_RETRY_MS;
  let known: ManagedPolicy | null = null;
  let generation = 0;
  let reading: { promise: Promise<ManagedPolicy | null>; since: number } | null = null;
  let keptRead: Promise<ManagedPolicy | null> | null = null;
  let toldPending = false;
  let lastProblem: string | null = null;

  function arrived(p: ManagedPolicy): void {
    known = p;
    if (toldPending) {
      toldPending = false;
      opts.onArrived?.();
    }
  }

  /** One read of managed storage; null when it failed. A success is kept for the session. */
  async function readOnce(gen: number): Promise<ManagedPolicy | null> {
    if (!source.getManaged) return noPolicy();
    let raw: unknown;
    try {
      raw = await source.getManaged();
    } catch (e) {
      if (gen === generation) lastProblem = t('policy_read_failed', e instanceof Error ? e.message : String(e));
      return null;
    }
    const policy = parseManaged(raw);
    // A read that started before the policy changed (forget) neither wins nor is kept.
    if (gen !== generation) return null;
    arrived(policy);
    lastProblem = null;
    reading = null;
    keptRead = Promise.resolve(policy);
    await source.setSession?.(POLICY_SESSION_KEY, { raw } satisfies Kept).catch(() => undefined);
    return policy;
  }

  /** The policy kept by an earlier read of this browser session, or null. */
  function kept(): Promise<ManagedPolicy | null> {
    keptRead ??= (async () => {
      try {
        const v = await source.getSession?.(POLICY_SESSION_KEY);
        return typeof v === 'object' && v !== null && 'raw' in v ? parseManaged(v.raw) : null;
      } catch {
        return null;
      }
    })();
    return keptRead;
  }

  function startRead(): Promise<ManagedPolicy | null> {
    const gen = generation;
    const now = opts.now();
    if (!reading || now - reading.since >= retryMs) {
      const previous = reading?.promise;
      const fresh = readOnce(gen);
      // Whichever read answers first: an older read still in flight is not dropped.
      const promise = previous ? Promise.any([previous, fresh].map((p) => p.then((v) => v ?? Promise.reject(new Error('no answer'))))).catch(() => null) : fresh;
      reading = { promise, since: now };
      void promise.then((p) => {
        if (p === null && reading?.promise === promise) reading = null;
      });
    }
    return reading.promise;
  }

  async function get(): Promise<ManagedPolicy | null> {
    if (known) return known;
    const read = startRead();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    try {
      const first = await Promise.race([read, late]);
      if (first !== 'late' && first !== null) return first;
      if (first === 'late') lastProblem ??= t('policy_read_late', Math.round(waitMs / 100) / 10);
    } finally {
      clearTimeout(timer);
    }
    if (known) return known;
    const fallback = await kept();
    if (fallback) return fallback;
    toldPending = true;
    return null;
  }

  return {
    get,
    problem: () => lastProblem,
    async settled(maxMs) {
      let over = false;
      const timer = setTimeout(() => {
        over = true;
      }, maxMs);
      try {
        // Each get waits at most waitMs, then the read is asked again on the next (retryMs).
        while (!known && !over) {
          if (await get()) return;
          if (!over) await new Promise((r) => setTimeout(r, Math.min(250, maxMs)));
        }
      } finally {
        clearTimeout(timer);
      }
    },
    forget: () => {
      known = null;
      reading = null;
      keptRead = null;
      generation += 1;
    },
  };
}
