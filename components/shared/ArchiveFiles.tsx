// An archive skill's files in the details view: every file an approval binds, with its size, its
// findings (how many, the most serious) and checksum, and, for an archive whose files changed since the approval, the files added, removed and
// changed, with a line diff of each text file (PRODUCT.md §9.2, FORMATS.md §6.6).
import type { ArchiveFileChange, SkillText } from '../../lib/messages';
import type { Finding, SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { formatBytes } from './format';
import { SkillDiff } from './SkillDiff';
import { mostSerious } from './finding-words';
import { SeverityBadge } from './Findings';
import { tn } from '../../lib/i18n/plural';

/** A file's findings: the most serious, in words with its marker, and how many there are. */
function FileFindings({ findings }: { findings: readonly Finding[] }) {
  const worst = mostSerious(findings);
  if (worst === null) return null;
  return (
    <span class="file-findings" data-count={findings.length} data-severity={worst}>
      <SeverityBadge severity={worst} /> <span class="hint">{tn('archive_file_findings', findings.length)}</span>
    </span>
  );
}

/** The files of the archive as the report lists them (directories left out). */
export function ArchiveFileList({ skill }: { skill: SkillReport }) {
  const files = (skill.archive?.entries ?? []).filter((e) => e.type === 'file');
  if (files.length === 0) return null;
  const findings = skill.review?.findings ?? [];
  return (
    <section class="section" aria-labelledby="archive-files-title" data-testid="archive-files">
      <h3 id="archive-files-title">{t('archive_files_title')}</h3>
      <p class="hint">{t('archive_files_note')}</p>
      <table class="files">
        <thead>
          <tr>
            <th scope="col">{t('archive_file_path')}</th>
            <th scope="col">{t('archive_file_size')}</th>
            <th scope="col">{t('archive_file_sha256')}</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path} data-file={f.path}>
              <td class="break">
                {f.path}
                <FileFindings findings={findings.filter((x) => x.file === f.path)} />
              </td>
              <td>{formatBytes(f.size)}</td>
              <td class="hex">{f.sha256 ?? t('unknown')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const CHANGE_LABEL = { added: 'file_change_added', removed: 'file_change_removed', changed: 'file_change_changed' } as const;
const MARK = { added: '+', removed: '−', changed: '±' } as const;

function FileChange({ change }: { change: ArchiveFileChange }) {
  return (
    <li class={`file-change file-${change.change}`} data-file={change.path} data-change={change.change}>
      <p class="file-change-head">
        <span aria-hidden="true">{MARK[change.change]} </span>
        <code class="break">{change.path}</code> <span class="file-change-kind">{t(CHANGE_LABEL[change.change])}</span>
      </p>
      <p class="hint hex">{t('file_change_digests', change.before?.sha256 ?? t('file_change_none'), change.after?.sha256 ?? t('file_change_none'))}</p>
      {change.text ? (
        <SkillDiff oldText={change.text.before} newText={change.text.after} />
      ) : (
        <p class="hint" data-testid="file-no-text">
          {t('file_change_no_text')}
        </p>
      )}
    </li>
  );
}

/** The files added, removed and changed since the approval; nothing when there are none. */
export function FileChanges({ files }: { files: readonly ArchiveFileChange[] }) {
  if (files.length === 0) return null;
  const count = (kind: ArchiveFileChange['change']) => files.filter((f) => f.change === kind).length;
  return (
    <section class="section" aria-labelledby="file-changes-title" data-testid="file-changes">
      <h3 id="file-changes-title">{t('file_changes_title')}</h3>
      <p class="diff-summary" data-testid="file-changes-summary">
        {t('file_changes_summary', count('added'), count('removed'), count('changed'))}
      </p>
      <ul class="file-changes">
        {files.map((f) => (
          <FileChange key={f.path} change={f} />
        ))}
      </ul>
    </section>
  );
}

type Changes = { texts: { approved: SkillText; current: SkillText } | null; files: readonly ArchiveFileChange[] | null };

/** What changed since the approval: the approved and current SKILL.md when both are known and differ, an archive's changed files when there are any. */
export function changesOf(text: { current: SkillText | null; approved: SkillText | null; files?: ArchiveFileChange[] | null } | null): Changes {
  const texts = text?.current && text.approved && text.approved.digestLf !== text.current.digestLf ? { approved: text.approved, current: text.current } : null;
  return { texts, files: text?.files && text.files.length > 0 ? text.files : null };
}

/** What changed since the approval: the SKILL.md's line diff and, for an archive, its files. */
export function ChangesSection({ texts, files }: Changes) {
  return (
    <>
      {texts && (
        <section class="section" aria-labelledby="diff-title">
          <h3 id="diff-title">{t('changes_title')}</h3>
          <SkillDiff oldText={texts.approved.text} newText={texts.current.text} />
        </section>
      )}
      {files && <FileChanges files={files} />}
    </>
  );
}
