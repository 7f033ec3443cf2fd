// One skill in the list: what it is, where it comes from, its status, and the
// actions the user may take on it now.
import { useId } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { StatusChip } from '../shared/StatusChip';
import { formatBytes, formatDate, formatTokens, sourceLabel } from '../shared/format';
import { statusLabel } from '../shared/status';
import { isExportOutOfDate } from '../../lib/export/record';
import { ExportButton, ExportNote } from '../shared/ExportControls';
import { usePolicy } from '../shared/policy';
import { approveCheck } from '../shared/approve';
import type { SkillActions } from '../shared/actions';
import type { ChatTab } from './target';

interface Props {
  skill: SkillReport;
  origin: string;
  actions: SkillActions;
  chatTab: ChatTab | null;
  onDetails: () => void;
}

/** When the skill was exported for upload, and whether that copy is out of date against this report. */
export function ExportLine({ skill, origin, actions }: { skill: SkillReport; origin: string; actions: SkillActions }) {
  const status = skill.url ? actions.exporter.exportOf(origin, skill.url) : null;
  return <ExportNote status={status} outOfDate={status ? isExportOutOfDate(status, skill) : false} />;
}

export function ApprovalLine({ skill }: { skill: SkillReport }) {
  const a = skill.approval;
  if (a.state === 'approved' && a.approval) {
    return <p class="approval approval-on">{t('approval_on', formatDate(a.approval.approvedAt))}</p>;
  }
  if (a.state === 'suspended' && a.code === 'approval-files-unbound') {
    return <p class="approval approval-suspended">{t('approval_files_unbound')}</p>;
  }
  if (a.state === 'suspended') {
    const why = a.suspendedBecause ? statusLabel(a.suspendedBecause) : t('unknown');
    return <p class="approval approval-suspended">{t('approval_suspended', why)}</p>;
  }
  return null;
}

/** Approve / Revoke / Copy / Insert buttons; Approve stays visible but disabled with the reason when refused. */
export function SkillButtons({
  skill,
  actions,
  chatTab,
  origin,
  reviewed = false,
}: {
  skill: SkillReport;
  actions: SkillActions;
  chatTab: ChatTab | null;
  origin: string;
  reviewed?: boolean;
}) {
  const reasonId = useId();
  const approved = skill.approval.state === 'approved';
  const check = approveCheck(skill, reviewed, usePolicy()?.requireSigned === true);
  const url = skill.url;
  return (
    <div class="actions">
      {!approved && (
        <>
          <button
            type="button"
            class="btn-primary"
            disabled={!check.ok || actions.busy}
            aria-describedby={check.ok ? undefined : reasonId}
            onClick={() => actions.approve(skill)}
            data-action="approve"
          >
            {skill.approval.state === 'suspended' || skill.status === 'content-changed' ? t('reapprove') : t('approve')}
          </button>
          {!check.ok && (
            <p class="hint" id={reasonId} data-testid="approve-reason">
              {check.reason}
            </p>
          )}
        </>
      )}
      {approved && url && chatTab && (
        <button
          type="button"
          class="btn-primary"
          disabled={actions.busy}
          onClick={() => void actions.insert(chatTab.tabId, chatTab.origin, origin, url, skill.name)}
          title={t('insert_into_title', chatTab.title)}
          data-action="insert"
        >
          {t('insert_into_chat')}
        </button>
      )}
      {approved && url && (
        // With a chat tab open, inserting is the main action and Copy steps back (a short label keeps one row).
        <button
          type="button"
          class={chatTab ? undefined : 'btn-primary'}
          disabled={actions.busy}
          onClick={() => void actions.copy(origin, url, skill.name)}
          aria-label={chatTab ? t('copy_context') : undefined}
          data-action="copy"
        >
          {chatTab ? t('copy_short') : t('copy_context')}
        </button>
      )}
      {approved && url && <ExportButton exporter={actions.exporter} origin={origin} url={url} name={skill.name} disabled={actions.busy} />}
      {skill.approval.state !== 'none' && url && (
        <button type="button" class="btn-quiet" disabled={actions.busy} onClick={() => void actions.revoke(skill)} data-action="revoke">
          {t('revoke')}
        </button>
      )}
    </div>
  );
}

export function SkillCard({ skill, origin, actions, chatTab, onDetails }: Props) {
  const headingId = useId();
  const meta = [
    skill.version ? t('meta_version', skill.version) : null,
    skill.license ? t('meta_license', skill.license) : null,
    skill.sources.length ? skill.sources.map(sourceLabel).join(' + ') : null,
    skill.size !== null ? formatBytes(skill.size) : null,
    skill.tokens !== null ? formatTokens(skill.tokens) : null,
  ].filter((x): x is string => x !== null);
  return (
    <li class={`card card-${skill.status}`} aria-labelledby={headingId} data-skill-id={skill.id} data-skill-url={skill.url ?? ""}>
      <div class="card-head">
        <h3 class="card-title" id={headingId}>
          {skill.name}
        </h3>
        <StatusChip status={skill.status} code={skill.statusCode} />
      </div>
      {skill.description && <p class="card-desc">{skill.description}</p>}
      {meta.length > 0 && <p class="card-meta">{meta.join(' · ')}</p>}
      {skill.crossOrigin && skill.artifactHost && (
        <p class="card-host" data-testid="artifact-host">
          <span aria-hidden="true">↗ </span>
          {t('hosted_on', skill.artifactHost)}
        </p>
      )}
      {skill.advisory.length > 0 && (
        <p class="card-advisory">
          <span aria-hidden="true">⚑ </span>
          {t('advisory_count', skill.advisory.length)}
        </p>
      )}
      <ApprovalLine skill={skill} />
      <ExportLine skill={skill} origin={origin} actions={actions} />
      <div class="card-actions">
        <button type="button" class="btn-quiet" onClick={onDetails} aria-label={t('details_for', skill.name)} data-action="details">
          {skill.status === 'content-changed' ? t('review_changes') : t('details')}
        </button>
        <SkillButtons skill={skill} actions={actions} chatTab={chatTab} origin={origin} />
      </div>
    </li>
  );
}
