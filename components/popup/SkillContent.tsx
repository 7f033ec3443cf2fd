// The details view's text sections: the SKILL.md rendered safely or raw, and for a changed
// skill the diff against the approved text (for an archive, its changed files too).
import { Loading } from '../shared/Placeholders';
import { useMemo, useState } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { renderSkillMarkdown } from '../../lib/render/markdown';
import type { TextState } from './use-skill-text';

function Rendered({ text, baseUrl }: { text: string; baseUrl: string | null }) {
  const html = useMemo(() => renderSkillMarkdown(text, document, baseUrl ? { baseUrl } : {}), [text, baseUrl]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderSkillMarkdown returns HTML sanitized by DOMPurify with remote loads removed (lib/render/markdown.ts)
  return <div class="markdown" data-testid="rendered" dangerouslySetInnerHTML={{ __html: html }} />;
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
