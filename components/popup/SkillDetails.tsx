// Everything about one skill: the SKILL.md (rendered safely, or raw), the exact
// status code, digests, signature, key, advisory flags, and for a changed skill
// the diff against the approved text.
import { useEffect, useRef } from 'preact/hooks';
import type { OriginReport, SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { StatusChip } from '../shared/StatusChip';
import { statusExplanation } from '../shared/status';
import type { PopupEnv } from './env';
import type { SkillActions } from '../shared/actions';
import { ApprovalLine, ExportLine, SkillButtons } from './SkillCard';
import { ArchiveFileList } from '../shared/ArchiveFiles';
import { ChangesSection, changedFiles, changedTexts, ContentSection } from './SkillContent';
import { FactsSection, IntegritySection } from './SkillFacts';
import type { ChatTab } from './target';
import { useSkillText } from './use-skill-text';

interface Props {
  env: PopupEnv;
  report: OriginReport;
  skill: SkillReport;
  actions: SkillActions;
  chatTab: ChatTab | null;
  onBack: () => void;
}

/** The exact status code (and the engine's finer code when it differs), what it means, and the skill's own words. */
function StatusLines({ skill }: { skill: SkillReport }) {
  return (
    <>
      <p class="status-code">
        {t('status_code')} <code data-testid="status-code">{skill.status}</code>
        {skill.statusCode !== skill.status && (
          <>
            {' · '}
            <code>{skill.statusCode}</code>
          </>
        )}
      </p>
      <p class="explain">{statusExplanation(skill.status)}</p>
      {skill.statusMessage && <p class="hint">{skill.statusMessage}</p>}
      {skill.description && <p>{skill.description}</p>}
    </>
  );
}

function AdvisorySection({ skill }: { skill: SkillReport }) {
  return (
    <section class="section" aria-labelledby="adv-title">
      <h3 id="adv-title">{t('advisory_title')}</h3>
      <p class="hint">{t('advisory_note')}</p>
      <ul class="flags">
        {skill.advisory.map((f) => (
          <li key={f.code} data-flag={f.code}>
            <span aria-hidden="true">⚑ </span>
            {f.message}
            {f.count !== undefined && ` (${f.count})`} <code>{f.code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DiagnosticsSection({ skill }: { skill: SkillReport }) {
  return (
    <section class="section" aria-labelledby="diag-title">
      <h3 id="diag-title">{t('diagnostics_title')}</h3>
      <ul class="diagnostics">
        {skill.diagnostics.map((d, i) => (
          <li key={i} class={`diag-${d.level}`}>
            <code>{d.code}</code> {d.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function SkillDetails({ env, report, skill, actions, chatTab, onBack }: Props) {
  const backRef = useRef<HTMLButtonElement>(null);
  // The text is asked for again when the skill's bytes change (a re-check found new content, or new files).
  const text = useSkillText(env, report.origin, skill.url, `${skill.actual?.lf ?? ''} ${skill.archive?.filesDigest ?? ''}`);

  useEffect(() => {
    backRef.current?.focus();
  }, []);

  const keyFp = report.key.pinned?.fingerprint ?? report.key.offered?.fingerprint ?? null;
  const changes = changedTexts(text);
  const files = changedFiles(text);
  // Approving again here is a review: the diff of what changed is shown, or for an archive approved
  // by an older version (its files never bound) the list of every file below.
  const unbound = skill.approval.code === 'approval-files-unbound';
  const reviewed = (skill.status === 'content-changed' && (changes !== null || files !== null)) || unbound;

  return (
    <article class="details" aria-labelledby="details-title">
      <div class="details-nav">
        <button type="button" class="btn-quiet" ref={backRef} onClick={onBack} data-action="back">
          <span aria-hidden="true">← </span>
          {t('back')}
        </button>
      </div>
      <div class="card-head">
        <h2 id="details-title">{skill.name}</h2>
        <StatusChip status={skill.status} code={skill.statusCode} />
      </div>
      <StatusLines skill={skill} />
      <ApprovalLine skill={skill} />
      <ExportLine skill={skill} origin={report.origin} actions={actions} />
      {(changes || files) && <ChangesSection texts={changes} files={files} />}
      <SkillButtons skill={skill} actions={actions} chatTab={chatTab} origin={report.origin} reviewed={reviewed} />
      {skill.status === 'content-changed' && !changes && !files && text.phase === 'ready' && <p class="hint">{t('diff_unavailable')}</p>}
      {skill.type === 'archive' && <ArchiveFileList skill={skill} />}
      {skill.advisory.length > 0 && <AdvisorySection skill={skill} />}
      <ContentSection text={text} skill={skill} />
      <FactsSection skill={skill} />
      <IntegritySection skill={skill} keyFp={keyFp} />
      {skill.diagnostics.length > 0 && <DiagnosticsSection skill={skill} />}
    </article>
  );
}
