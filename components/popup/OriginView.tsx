// The skills of one origin: loads its report (probing when there is none yet),
// then shows the key banner, the list, or one skill's details.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { OriginReport } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import { useSkillActions } from './actions';
import type { PopupEnv } from './env';
import { KeyBanner, needsKeyBanner } from './KeyBanner';
import { SkillCard } from './SkillCard';
import { useProgressiveCount } from './progressive';
import { loadedSkillDetails, loadSkillDetails, preloadSkillDetails, type SkillDetailsComponent } from './details-loader';
import type { ChatTab } from './target';

type State = { phase: 'loading'; probing: boolean } | { phase: 'error'; message: string } | { phase: 'ready'; report: OriginReport };

const SKIP_REASONS: Record<string, MessageKey> = {
  paused: 'skipped_paused',
  'deny-listed': 'skipped_deny_listed',
  'not-allow-listed': 'skipped_not_allow_listed',
  'private-window': 'skipped_private',
  'not-http': 'skipped_not_http',
};

type DetailsState = { phase: 'ready'; Details: SkillDetailsComponent } | { phase: 'loading' } | { phase: 'error'; message: string };

/** The details component, loaded when `wanted` first becomes true. */
function useSkillDetails(wanted: boolean): DetailsState {
  const [state, setState] = useState<DetailsState>(() => {
    const Details = loadedSkillDetails();
    return Details ? { phase: 'ready', Details } : { phase: 'loading' };
  });
  useEffect(() => {
    if (!wanted || state.phase === 'ready') return;
    let live = true;
    setState({ phase: 'loading' });
    loadSkillDetails().then(
      (Details) => live && setState({ phase: 'ready', Details }),
      (err: unknown) => live && setState({ phase: 'error', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [wanted, state.phase === 'ready']);
  return state;
}

interface Props {
  env: PopupEnv;
  origin: string;
  /** The tab the popup is about (null when opened for an origin): sent with a probe request. */
  tabId?: number | null;
  chatTab: ChatTab | null;
  /** Set by the header's Re-check button; each increment probes again. */
  recheck: number;
  onBusy?: (busy: boolean) => void;
}

export function OriginView({ env, origin, tabId = null, chatTab, recheck, onBusy }: Props) {
  const announce = useAnnounce();
  // A report the popup already fetched is the first state (no second round trip, no effect to wait
  // for); an early answer of null (no report yet) or of a report still probing goes straight to the probe.
  const firstStep = useRef<'none' | 'probe' | 'load'>('load');
  const [state, setState] = useState<State>(() => {
    const early = env.readyReport?.(origin);
    if (early && early.state !== 'probing' && early.state !== 'idle') {
      firstStep.current = 'none';
      return { phase: 'ready', report: early };
    }
    if (early !== undefined) firstStep.current = 'probe';
    return { phase: 'loading', probing: false };
  });
  const [selected, setSelected] = useState<string | null>(null);
  const [bannerHidden, setBannerHidden] = useState(false);
  const lastFocus = useRef<string | null>(null);
  const seq = useRef(0);

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

  const load = useCallback(async () => {
    const n = ++seq.current;
    try {
      const report = await env.client.report(origin);
      if (n !== seq.current) return;
      if (!report || report.state === 'probing' || report.state === 'idle') {
        await probe();
        return;
      }
      setState({ phase: 'ready', report });
    } catch (err) {
      if (n === seq.current) setState({ phase: 'error', message: errorText(err) });
    }
  }, [env, origin, probe]);

  useEffect(() => {
    const step = firstStep.current;
    firstStep.current = 'load';
    if (step === 'none') return;
    void (step === 'probe' ? probe() : load());
  }, [load]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void probe().then(() => announce(t('rechecked'), 'info'));
  }, [recheck]);

  const actions = useSkillActions(env, origin, load);
  const ready = state.phase === 'ready';
  const skill = ready && selected ? state.report.skills.find((s) => s.id === selected) : undefined;
  const details = useSkillDetails(skill !== undefined);
  // The first cards now, the rest in idle time (progressive.ts).
  const drawn = useProgressiveCount(ready ? state.report.skills.length : 0);
  // With the list on screen, the details chunk loads while the user reads it.
  useEffect(() => (ready ? preloadSkillDetails() : undefined), [ready]);

  if (state.phase === 'loading') {
    return (
      <p class="state loading" aria-busy="true" data-testid="loading">
        <span class="spinner" aria-hidden="true" />
        {state.probing ? t('probing', origin) : t('loading')}
      </p>
    );
  }
  if (state.phase === 'error') {
    return (
      <div class="state error" role="alert" data-testid="error">
        <p>{t('report_error', state.message)}</p>
        <button type="button" onClick={() => void probe()}>
          {t('try_again')}
        </button>
      </div>
    );
  }

  const report = state.report;

  async function trust(expected: string | null, next: string) {
    try {
      const res = await env.client.trustKey(origin, expected, next);
      if (res.ok) announce(t('trusted_ok'), 'success');
      else announce(t('trust_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
      await load();
    } catch (err) {
      announce(t('action_failed', errorText(err)), 'error');
    }
  }

  const banner = needsKeyBanner(report.key) && !bannerHidden && (
    <KeyBanner
      origin={origin}
      keyReport={report.key}
      optionsUrl={env.optionsUrl}
      busy={actions.busy}
      onTrust={(e, n) => void trust(e, n)}
      onKeep={() => {
        setBannerHidden(true);
        announce(t('kept_blocking'), 'info');
      }}
    />
  );

  const backToList = () => {
    setSelected(null);
    queueMicrotask(() => {
      const id = lastFocus.current;
      const el = id ? document.querySelector<HTMLElement>(`[data-skill-id="${CSS.escape(id)}"] [data-action="details"]`) : null;
      el?.focus();
    });
  };

  if (skill && details.phase !== 'ready') {
    return details.phase === 'loading' ? (
      <p class="state loading" aria-busy="true" data-testid="details-loading">
        <span class="spinner" aria-hidden="true" />
        {t('loading')}
      </p>
    ) : (
      <div class="state error" role="alert" data-testid="details-error">
        <p>{t('action_failed', details.message)}</p>
        <button type="button" onClick={backToList} data-action="back">
          {t('back')}
        </button>
      </div>
    );
  }

  if (skill && details.phase === 'ready') {
    const SkillDetails = details.Details;
    return (
      <>
        <SkillDetails
          env={env}
          report={report}
          skill={skill}
          actions={actions}
          chatTab={chatTab}
          onBack={backToList}
        />
        {actions.dialog}
      </>
    );
  }

  let body: ComponentChildren;
  if (report.state === 'skipped') {
    const key = report.skippedBecause ? SKIP_REASONS[report.skippedBecause] : undefined;
    body = (
      <div class="state" data-testid="skipped">
        <p>{key ? t(key) : t('skipped_other', report.skippedBecause ?? t('unknown'))}</p>
      </div>
    );
  } else if (report.state === 'error') {
    body = (
      <div class="state error" data-testid="probe-error">
        <p>{t('probe_error')}</p>
        <ul class="diagnostics">
          {report.diagnostics.map((d, i) => (
            <li key={i}>
              <code>{d.code}</code> {d.message}
            </li>
          ))}
        </ul>
      </div>
    );
  } else if (report.skills.length === 0) {
    const problems = report.diagnostics.filter((d) => d.level !== 'info');
    body = (
      <div class="state empty" data-testid="empty">
        <p>{report.publishes ? t('empty_publishes') : t('empty_none')}</p>
        {problems.length > 0 && (
          <ul class="diagnostics">
            {problems.map((d, i) => (
              <li key={i} class={`diag-${d.level}`}>
                <code>{d.code}</code> {d.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  } else {
    body = (
      <>
        <p class="summary" data-testid="summary">
          {t('summary', report.summary.total, report.summary.usable, report.summary.approved)}
        </p>
        <ul class="cards" aria-label={t('skills_of', origin)} aria-busy={drawn < report.skills.length ? 'true' : undefined}>
          {(drawn < report.skills.length ? report.skills.slice(0, drawn) : report.skills).map((s) => (
            <SkillCard
              key={s.id}
              skill={s}
              origin={origin}
              actions={actions}
              chatTab={chatTab}
              onDetails={() => {
                lastFocus.current = s.id;
                setSelected(s.id);
              }}
            />
          ))}
        </ul>
      </>
    );
  }

  // The browser storage failed during the probe: the list below is shown, but may not be remembered.
  const storageProblems = report.state === 'error' ? [] : report.diagnostics.filter((d) => d.code === 'storage-error');
  const storageNotice = storageProblems.length > 0 && (
    <ul class="diagnostics" role="alert" data-testid="storage-problem">
      {storageProblems.map((d, i) => (
        <li key={i} class={`diag-${d.level}`}>
          <code>{d.code}</code> {d.message}
        </li>
      ))}
    </ul>
  );

  return (
    <>
      {banner}
      {storageNotice}
      {body}
      {actions.dialog}
    </>
  );
}
