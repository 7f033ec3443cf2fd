// The skills of one origin: renders its report (use-origin-report.ts loads it, probing when
// there is none yet) as the key banner, the list, or one skill's details.
import { PinnedKeyOf } from '../shared/StatusChip';
import { Loading } from '../shared/Placeholders';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { useSkillActions } from '../shared/actions';
import { KeyBanner, needsKeyBanner } from '../shared/KeyBanner';
import { ReportBody, StorageNotice, type SiteAccessActions } from './ReportBody';
import { ALL_SITES_PATTERNS, originPattern } from '../../lib/match-patterns';
import { errorText } from '../shared/format';
import { useProgressiveCount } from './progressive';
import { preloadSkillDetails, useSkillDetails, type DetailsState, type SkillDetailsComponent } from './details-loader';
import type { ChatTab } from './target';
import { useOriginReport, type OriginReportOptions } from './use-origin-report';

interface Props extends OriginReportOptions {
  chatTab: ChatTab | null;
  /**
   * On a chat site: the section shows its heading ("This site's skills") and appears only when the
   * site lists skills or its key needs a decision; a chat site that publishes nothing shows nothing.
   */
  hideEmpty: boolean;
}

/** The section around the origin's view; its heading is for screen readers only unless a chat panel is above it. */
function SiteSection({ shown, kept = false, children }: { shown: boolean; kept?: boolean; children: ComponentChildren }) {
  // A kept report (use-origin-report.ts) is inert: nothing in it takes a click or the focus until the background's answer replaces it.
  return (
    <section aria-labelledby="site-title" class="site" inert={kept} aria-busy={kept ? 'true' : undefined} data-kept={kept ? 'true' : undefined}>
      <h2 id="site-title" class={shown ? '' : 'visually-hidden'}>
        {t('site_skills')}
      </h2>
      {children}
    </section>
  );
}

function Failure({ testId, text, label, action, onClick }: { testId: string; text: string; label: string; action?: string; onClick: () => void }) {
  return (
    <div class="state error" role="alert" data-testid={testId}>
      <p>{text}</p>
      <button type="button" onClick={onClick} data-action={action}>
        {label}
      </button>
    </div>
  );
}

type DetailsProps = Parameters<SkillDetailsComponent>[0] & { details: DetailsState };

/** One skill's details, once their chunk is loaded; meanwhile a spinner, or the failure and a way back. */
function DetailsView({ env, report, skill, details, actions, chatTab, onBack }: DetailsProps) {
  if (details.phase === 'loading') return <Loading cls="state loading" spinner testId="details-loading" />;
  if (details.phase === 'error') return <Failure testId="details-error" text={t('action_failed', details.message)} label={t('back')} action="back" onClick={onBack} />;
  const SkillDetails = details.Details;
  return (
    <>
      <PinnedKeyOf report={report}>
        <SkillDetails env={env} report={report} skill={skill} actions={actions} chatTab={chatTab} onBack={onBack} />
      </PinnedKeyOf>
      {actions.dialog}
    </>
  );
}

export function OriginView({ env, origin, tabId, chatTab, recheck, changes = 0, onBusy, hideEmpty }: Props) {
  const announce = useAnnounce();
  const { state, probe, reload, trust } = useOriginReport({ env, origin, tabId, recheck, changes, onBusy });
  const [selected, setSelected] = useState<string | null>(null);
  const [bannerHidden, setBannerHidden] = useState(false);
  const lastFocus = useRef<string | null>(null);

  const skillActions = useSkillActions(env, origin, reload, changes);
  const ready = state.phase === 'ready';
  const kept = ready && state.kept === true;
  // On the kept copy every action is disabled as while one runs: only the background's answer is acted on.
  const actions = kept ? { ...skillActions, busy: true } : skillActions;
  const skill = ready && selected ? state.report.skills.find((s) => s.id === selected) : undefined;
  const details = useSkillDetails(skill !== undefined);
  // The first cards now, the rest in idle time (progressive.ts).
  const drawn = useProgressiveCount(ready ? state.report.skills.length : 0);
  // With the list on screen, the details chunk loads while the user reads it.
  useEffect(() => (ready ? preloadSkillDetails() : undefined), [ready]);

  if (state.phase !== 'ready') {
    return hideEmpty ? null : (
      <SiteSection shown={false}>
        {state.phase === 'loading' ? (
          <Loading cls="state loading" spinner testId="loading" text={state.probing ? t('probing', origin) : t('loading')} />
        ) : (
          <Failure testId="error" text={t('report_error', state.message)} label={t('try_again')} onClick={() => void probe()} />
        )}
      </SiteSection>
    );
  }

  const report = state.report;
  if (hideEmpty && report.skills.length === 0 && !needsKeyBanner(report.key)) return null;
  const backToList = () => {
    setSelected(null);
    queueMicrotask(() => {
      const id = lastFocus.current;
      if (id) document.querySelector<HTMLElement>(`[data-skill-id="${CSS.escape(id)}"] [data-action="details"]`)?.focus();
    });
  };
  if (skill) {
    return (
      <SiteSection shown={hideEmpty}>
        <DetailsView env={env} report={report} skill={skill} details={details} actions={actions} chatTab={chatTab} onBack={backToList} />
      </SiteSection>
    );
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
  const request = kept ? undefined : env.requestAccess;
  const access: SiteAccessActions = {
    onProbe: () => void (kept ? undefined : probe()),
    onAllow: request
      ? (scope) => {
          // Asked from the click itself (the browsers allow a permission request only from a user gesture).
          void request(scope === 'all' ? ALL_SITES_PATTERNS : [originPattern(origin) ?? origin]).then(
            (granted) => {
              if (granted) void probe();
              else announce(t('access_denied'), 'error');
            },
            (err: unknown) => announce(t('action_failed', errorText(err)), 'error'),
          );
        }
      : undefined,
  };
  const openDetails = (s: SkillReport) => {
    if (kept) return;
    lastFocus.current = s.id;
    setSelected(s.id);
  };
  return (
    <SiteSection shown={hideEmpty} kept={kept}>
      {banner}
      <StorageNotice report={report} />
      <ReportBody report={report} access={access} origin={origin} actions={actions} chatTab={chatTab} drawn={drawn} onDetails={openDetails} />
      {actions.dialog}
    </SiteSection>
  );
}
