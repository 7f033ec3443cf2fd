// The popup's origin report as a state machine: where it starts (an early report, a load, a probe),
// the probes the user asks for (Try again, Re-check), the reload after an action changed the stored
// state (approve, revoke, trust a key) and the errors on the way. OriginView only renders it.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { OriginReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import { trustKey } from '../shared/KeyBanner';
import type { PopupEnv } from './env';

export type OriginReportState =
  | { phase: 'loading'; probing: boolean }
  | { phase: 'error'; message: string }
  /** `kept`: the background's kept copy (env.keptReport), painted until its answer replaces it; nothing on it may be acted on. */
  | { phase: 'ready'; report: OriginReport; kept?: true };

export interface OriginReportOptions {
  env: PopupEnv;
  origin: string;
  /** The tab the popup is about (null when opened for an origin): sent with a probe request. */
  tabId: number | null;
  /** Each increment after the first render probes again and announces the re-check. */
  recheck: number;
  /**
   * Grows with every change of trust state or settings made anywhere (an import in the options
   * page, another popup): the stored report is read again, joining the probe such a change starts.
   */
  changes?: number;
  /** Told when a probe starts and when the latest one ends (the header disables Re-check meanwhile). */
  onBusy?: (busy: boolean) => void;
}

export type OriginReportModel = ReturnType<typeof useOriginReport>;

/** A stored report the view can show as it is: there is one, and its probe has finished. */
function finished(report: OriginReport | null | undefined): report is OriginReport {
  return !!report && report.state !== 'probing' && report.state !== 'idle';
}

export function useOriginReport({ env, origin, tabId, recheck, changes = 0, onBusy }: OriginReportOptions) {
  const announce = useAnnounce();
  // A report the popup already fetched is the first state (no second round trip, no effect to wait
  // for); an early answer of null (no report yet) or of a report still probing goes straight to the probe.
  const firstStep = useRef<'none' | 'probe' | 'load'>('load');
  const [state, setState] = useState<OriginReportState>(() => {
    const early = env.readyReport?.(origin);
    if (finished(early)) {
      firstStep.current = 'none';
      return { phase: 'ready', report: early };
    }
    if (early !== undefined) {
      firstStep.current = 'probe';
      return { phase: 'loading', probing: false };
    }
    // No answer yet: the kept copy is painted while the first load asks the background.
    const kept = env.keptReport?.(origin);
    if (finished(kept)) return { phase: 'ready', report: kept, kept: true };
    return { phase: 'loading', probing: false };
  });
  // Only the latest request may change the state: an older answer arriving late is dropped.
  const seq = useRef(0);

  /** Asks the background to probe the origin again (Try again, Re-check). */
  const probe = useCallback(async () => {
    const n = ++seq.current;
    setState({ phase: 'loading', probing: true });
    onBusy?.(true);
    try {
      const report = await env.client.probe(origin, tabId);
      if (n === seq.current) setState({ phase: 'ready', report });
    } catch (err) {
      if (n === seq.current) setState({ phase: 'error', message: errorText(err) });
    } finally {
      if (n === seq.current) onBusy?.(false);
    }
  }, [env, origin, tabId, onBusy]);

  /** Reads the stored report again after a change; probes when there is none yet or it is unfinished. */
  const reload = useCallback(async () => {
    const n = ++seq.current;
    try {
      const report = await env.client.report(origin);
      if (n !== seq.current) return;
      if (finished(report)) setState({ phase: 'ready', report });
      else await probe();
    } catch (err) {
      if (n === seq.current) setState({ phase: 'error', message: errorText(err) });
    }
  }, [env, origin, probe]);

  useEffect(() => {
    const step = firstStep.current;
    firstStep.current = 'load';
    if (step === 'none') return;
    void (step === 'probe' ? probe() : reload());
  }, [reload]);

  const lastRecheck = useRef(recheck);
  useEffect(() => {
    if (recheck === lastRecheck.current) return;
    lastRecheck.current = recheck;
    void probe().then(() => announce(t('rechecked'), 'info'));
  }, [recheck]);

  // A change made elsewhere: read the report again (the background answers the probe that change
  // started, when one runs: an import, an approval or a key decision probes the origins it touched).
  useEffect(() => {
    if (changes > 0) void reload();
  }, [changes]);

  /** Trusts the publisher key `next` in place of `expected` (PRODUCT.md, key change), then reloads. */
  const trust = (expected: string | null, next: string) => trustKey(env.client, announce, origin, expected, next, reload, 'action_failed');

  return { state, probe, reload, trust };
}
