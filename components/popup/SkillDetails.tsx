// Everything about one skill: one plain verdict, what the user may do, the diff against the
// approved text for a changed skill, what the skill can do (every finding), the content flags, the SKILL.md (rendered safely, or raw),
// the facts, and folded below them the evidence (checksums, signature, key, status code).
import { useEffect, useRef } from 'preact/hooks';
import type { OriginReport, SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { StatusChip } from '../shared/StatusChip';
import { flagWords, statusVerdict } from '../shared/status';
import type { PopupEnv } from './env';
import type { SkillActions } from '../shared/actions';
import { ApprovalLine, ExportLine, SkillButtons } from './SkillCard';
import { ArchiveFileList, ChangesSection, changesOf } from '../shared/ArchiveFiles';
import { ContentSection, useSkillText } from './SkillContent';
import { EvidenceSection, FactsSection } from './SkillFacts';
import { FindingsSection } from '../shared/Findings';
import { NeedsConfirmation } from './SkillFindings';
import type { ChatTab } from './target';

interface Props {
  env: PopupEnv;
  report: OriginReport;
  skill: SkillReport;
  actions: SkillActions;
  chatTab: ChatTab | null;
  onBack: () => void;
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
            {flagWords(f.code, f.count ?? 1)}
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

  useEffect(() => backRef.current?.focus(), []);

  const keyFp = report.key.pinned?.fingerprint ?? report.key.offered?.fingerprint ?? null;
  const { texts: changes, files } = changesOf(text.phase === 'ready' ? text : null);
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
      <p class="verdict" data-testid="verdict">
        {statusVerdict(skill.status, skill.statusCode)}
      </p>
      {skill.description && <p>{skill.description}</p>}
      <ApprovalLine skill={skill} />
      <NeedsConfirmation skill={skill} actions={actions} />
      <ExportLine skill={skill} origin={report.origin} actions={actions} />
      <ChangesSection texts={changes} files={files} />
      <SkillButtons skill={skill} actions={actions} chatTab={chatTab} origin={report.origin} reviewed={reviewed} />
      {skill.status === 'content-changed' && !changes && !files && text.phase === 'ready' && <p class="hint">{t('diff_unavailable')}</p>}
      <FindingsSection skill={skill} />
      {skill.type === 'archive' && <ArchiveFileList skill={skill} />}
      {skill.advisory.length > 0 && <AdvisorySection skill={skill} />}
      <ContentSection text={text} skill={skill} />
      <FactsSection skill={skill} />
      <EvidenceSection skill={skill} keyFp={keyFp} clipboard={env.clipboard} />
    </article>
  );
}
