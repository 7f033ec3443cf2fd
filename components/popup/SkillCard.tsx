// One skill in the list: what it can do (before anything else), what it is, where it comes from,
// its status, and the actions the user may take on it now.
import { useContext, useId } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { StatusChip } from '../shared/StatusChip';
import { formatDate, insertedSize } from '../shared/format';
import { documentLabel } from '../../lib/i18n/document';
import { NAME_MAX, display } from '../../lib/render/display';
import { statusLabel } from '../shared/status';
import { isExportOutOfDate } from '../../lib/export/record';
import { ExportButton, ExportNote } from '../shared/ExportControls';
import { PolicyContext } from '../shared/policy';
import { approveCheck } from '../shared/approve';
import { CopyContextButton, InsertButton, type SkillActions } from '../shared/actions';
import type { ChatTab } from './target';
import { CardFindings, NeedsConfirmation } from './SkillFindings';

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
  if (a.state === 'suspended') {
    if (a.code === 'approval-files-unbound') return <p class="approval approval-suspended">{t('approval_files_unbound')}</p>;
    const why = a.suspendedBecause ? statusLabel(a.suspendedBecause) : t('unknown');
    return <p class="approval approval-suspended">{t('approval_suspended', why)}</p>;
  }
  return null;
}

/**
 * What the user may do with the skill now. Not approved: Approve (disabled, with the reason, when
 * refused). Approved: Insert into chat (with a chat tab open) and Copy skill context, then a second
 * row with Export for upload and, apart from it, Withdraw approval.
 */
export function SkillButtons({ skill, actions, chatTab, origin, reviewed = false }: { skill: SkillReport; actions: SkillActions; chatTab: ChatTab | null; origin: string; reviewed?: boolean }) {
  const reasonId = useId();
  const approved = skill.approval.state === 'approved';
  const check = approveCheck(skill, reviewed, useContext(PolicyContext)?.requireSigned === true);
  const url = skill.url;
  const name = display(skill.name, NAME_MAX);
  const withdraw = skill.approval.state !== 'none' && url && (
    <button type="button" class="btn-quiet btn-quiet-danger" disabled={actions.busy} onClick={() => void actions.withdraw(skill)} aria-label={t('withdraw_for', name)} data-action="withdraw">
      {t('withdraw')}
    </button>
  );
  if (!approved || !url) {
    return (
      <div class="actions">
        <button type="button" class="btn-primary" disabled={!check.ok || actions.busy} aria-describedby={check.ok ? undefined : reasonId} onClick={() => actions.approve(skill)} data-action="approve">
          {skill.approval.state === 'suspended' || skill.status === 'content-changed' ? t('reapprove') : t('approve')}
        </button>
        {withdraw}
        {!check.ok && (
          <p class="hint" id={reasonId} data-testid="approve-reason">
            {check.reason}
          </p>
        )}
      </div>
    );
  }
  return (
    <div class="actions-stack">
      <div class="actions">
        {chatTab && <InsertButton actions={actions} to={chatTab} origin={origin} url={url} name={skill.name} />}
        <CopyContextButton actions={actions} origin={origin} url={url} name={skill.name} primary={!chatTab} />
      </div>
      <div class="actions actions-secondary">
        <ExportButton exporter={actions.exporter} origin={origin} url={url} name={skill.name} disabled={actions.busy} />
        {withdraw}
      </div>
    </div>
  );
}

export function SkillCard({ skill, origin, actions, chatTab, onDetails }: { skill: SkillReport; origin: string; actions: SkillActions; chatTab: ChatTab | null; onDetails: () => void }) {
  const headingId = useId();
  // Each fact on its own, so a line breaks between facts, never inside one or after a separator.
  const meta = [
    skill.version ? t('meta_version', skill.version) : null,
    skill.license ? t('meta_license', skill.license) : null,
    skill.sources.length ? skill.sources.map(documentLabel).join(' + ') : null,
    insertedSize(skill),
  ].filter((x): x is string => x !== null);
  return (
    <li class={`card card-${skill.status}`} aria-labelledby={headingId} data-skill-id={skill.id} data-skill-url={skill.url ?? ''}>
      <div class="card-head">
        <h3 class="card-title" id={headingId}>
          {skill.name}
        </h3>
        <StatusChip status={skill.status} code={skill.statusCode} />
      </div>
      <CardFindings skill={skill} />
      {skill.description && <p class="card-desc">{skill.description}</p>}
      {meta.length > 0 && (
        <ul class="card-meta" aria-label={t('card_facts')}>
          {meta.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
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
      <NeedsConfirmation skill={skill} actions={actions} />
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
