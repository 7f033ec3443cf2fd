// The details view's text sections: the SKILL.md rendered safely or raw, and for a changed
// skill the diff against the approved text (for an archive, its changed files too).
import { Loading } from '../shared/Placeholders';
import { useMemo, useState } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import type { ArchiveFileChange, SkillText } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { renderSkillMarkdown } from '../../lib/render/markdown';
import { FileChanges } from '../shared/ArchiveFiles';
import { SkillDiff } from '../shared/SkillDiff';
import type { TextState } from './use-skill-text';

function Rendered({ text, baseUrl }: { text: string; baseUrl: string | null }) {
  const html = useMemo(() => renderSkillMarkdown(text, document, baseUrl ? { baseUrl } : {}), [text, baseUrl]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderSkillMarkdown returns HTML sanitized by DOMPurify with remote loads removed (lib/render/markdown.ts)
  return <div class="markdown" data-testid="rendered" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The approved and the current text when both are known and differ: what the diff shows. */
export function changedTexts(text: TextState): { approved: SkillText; current: SkillText } | null {
  if (text.phase !== 'ready' || !text.current || !text.approved) return null;
  return text.approved.digestLf !== text.current.digestLf ? { approved: text.approved, current: text.current } : null;
}

/** An archive's files added, removed or changed since the approval, when there are any. */
export function changedFiles(text: TextState): ArchiveFileChange[] | null {
  return text.phase === 'ready' && text.files && text.files.length > 0 ? text.files : null;
}

/** What changed since the approval: the SKILL.md's line diff and, for an archive, its files. */
export function ChangesSection({ texts, files }: { texts: { approved: SkillText; current: SkillText } | null; files: ArchiveFileChange[] | null }) {
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

function ContentBody({ text, raw, skill }: { text: TextState; raw: boolean; skill: SkillReport }) {
  if (text.phase === 'loading') {
    return <Loading text={t('loading_text')} />;
  }
  if (text.phase === 'error') return <p class="error">{t('text_error', text.message)}</p>;
  if (!text.current) return <p class="hint">{t('no_text', skill.statusMessage || skill.status)}</p>;
  return raw ? (
    <pre class="raw" tabIndex={0} data-testid="raw">
      {text.current.text}
    </pre>
  ) : (
    <Rendered text={text.current.text} baseUrl={skill.url} />
  );
}

/** The SKILL.md with its Rendered / Raw toggle. */
export function ContentSection({ text, skill }: { text: TextState; skill: SkillReport }) {
  const [raw, setRaw] = useState(false);
  return (
    <section class="section" aria-labelledby="content-title">
      <div class="section-head">
        <h3 id="content-title">{t('content_title')}</h3>
        <div class="toggle" role="group" aria-label={t('content_view')}>
          <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>
            {t('view_rendered')}
          </button>
          <button type="button" aria-pressed={raw} onClick={() => setRaw(true)} data-action="raw">
            {t('view_raw')}
          </button>
        </div>
      </div>
      <ContentBody text={text} raw={raw} skill={skill} />
    </section>
  );
}
