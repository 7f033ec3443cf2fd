// The body of a finished origin report: why the origin was skipped, why its probe failed,
// that it lists no skills, or the summary and the cards. Also the notice that the browser
// storage failed during the probe.
import { PinnedKeyOf } from '../shared/StatusChip';
import { useEffect } from 'preact/hooks';
import type { OriginReport, SkillReport } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import type { SkillActions } from '../shared/actions';
import { SkillCard } from './SkillCard';
import { Diagnostics } from '../shared/Placeholders';
import type { ChatTab } from './target';

const SKIP_REASONS: Record<string, MessageKey> = {
  'no-site-access': 'skipped_no_site_access',
  'policy-pending': 'skipped_policy_pending',
  paused: 'skipped_paused',
  'deny-listed': 'skipped_deny_listed',
  'not-allow-listed': 'skipped_not_allow_listed',
  'private-window': 'skipped_private',
  'not-http': 'skipped_not_http',
};

/** How long the popup waits before it asks again while the organisation's settings are not known. */
const POLICY_RETRY_MS = 2000;

function Skipped({ report, access: { onProbe, onAllow } }: { report: OriginReport; access: SiteAccessActions }) {
  const reason = report.skippedBecause;
  const key = reason ? SKIP_REASONS[reason] : undefined;
  // The organisation's settings come in a moment: ask again until they have (each answer is a new report).
  useEffect(() => {
    if (reason !== 'policy-pending') return;
    const timer = setTimeout(onProbe, POLICY_RETRY_MS);
    return () => clearTimeout(timer);
  }, [report, reason, onProbe]);
  return (
    <div class="state" data-testid="skipped" data-reason={reason ?? undefined}>
      <p>{key ? t(key) : t('skipped_unknown_reason', reason ?? t('unknown'))}</p>
      {reason === 'no-site-access' && onAllow && (
        <p class="actions">
          <button type="button" class="primary" data-action="allow-site" onClick={() => onAllow('site')}>
            {t('access_allow_site')}
          </button>
          <button type="button" data-action="allow-all" onClick={() => onAllow('all')}>
            {t('access_allow_all')}
          </button>
        </p>
      )}
    </div>
  );
}

/** What the skipped view can do about a site Skillpin may not read (or a policy not known yet). */
export interface SiteAccessActions {
  /** Asks the browser for access from the click (absent: the popup cannot ask, e.g. in a test page). */
  onAllow?: (scope: 'site' | 'all') => void;
  /** Probes the origin again. */
  onProbe: () => void;
}

function ProbeError({ report }: { report: OriginReport }) {
  return (
    <div class="state error" data-testid="probe-error">
      <p>{t('probe_error')}</p>
      <Diagnostics items={report.diagnostics} leveled={false} />
    </div>
  );
}

function Empty({ report }: { report: OriginReport }) {
  const problems = report.diagnostics.filter((d) => d.level !== 'info');
  return (
    <div class="state empty" data-testid="empty">
      <p>{report.publishes ? t('empty_publishes') : t('empty_none')}</p>
      {problems.length > 0 && <Diagnostics items={problems} leveled />}
    </div>
  );
}

interface ListProps {
  report: OriginReport;
  access: SiteAccessActions;
  origin: string;
  actions: SkillActions;
  chatTab: ChatTab | null;
  /** How many cards are drawn so far (progressive.ts). */
  drawn: number;
  onDetails: (skill: SkillReport) => void;
}

export function ReportBody({ report, access, origin, actions, chatTab, drawn, onDetails }: ListProps) {
  if (report.state === 'skipped') return <Skipped report={report} access={access} />;
  if (report.state === 'error') return <ProbeError report={report} />;
  if (report.skills.length === 0) return <Empty report={report} />;
  return (
    <PinnedKeyOf report={report}>
      <p class="summary" data-testid="summary">
        {t('summary', report.summary.total, report.summary.usable, report.summary.approved)}
      </p>
      <ul class="cards" aria-label={t('skills_of', origin)} aria-busy={drawn < report.skills.length ? 'true' : undefined}>
        {(drawn < report.skills.length ? report.skills.slice(0, drawn) : report.skills).map((s) => (
          <SkillCard key={s.id} skill={s} origin={origin} actions={actions} chatTab={chatTab} onDetails={() => onDetails(s)} />
        ))}
      </ul>
    </PinnedKeyOf>
  );
}

/** The browser storage failed during the probe: the list is shown, but may not be remembered. */
export function StorageNotice({ report }: { report: OriginReport }) {
  const problems = report.state === 'error' ? [] : report.diagnostics.filter((d) => d.code === 'storage-error');
  if (problems.length === 0) return null;
  return <Diagnostics items={problems} leveled role="alert" data-testid="storage-problem" />;
}
