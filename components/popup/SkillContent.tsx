// The details view's text: the verified SKILL.md, asked for again when the skill's bytes change,
// rendered safely or raw; and the approved text when it differs, for the diff (SkillDetails.tsx).
import { Loading } from '../shared/Placeholders';
import { useMemo, useState } from 'preact/hooks';
import type { SkillReport } from '../../lib/types';
import type { ArchiveFileChange, SkillText } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { renderSkillMarkdown } from '../../lib/render/markdown';
import { useLive } from '../shared/use-list';
import { errorText } from '../shared/format';
import type { PopupEnv } from './env';

/** `files`: for an archive, what changed in its files since the approval (null: nothing to compare). */
export type TextState = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; current: SkillText | null; approved: SkillText | null; files: ArchiveFileChange[] | null };

/** `url` null: the skill has no usable URL, so there is no text to ask for. A new `contentKey` (the digests) reloads it. */
export function useSkillText(env: PopupEnv, origin: string, url: string | null, contentKey: string | undefined): TextState {
  const [text, setText] = useState<TextState>({ phase: 'loading' });
  useLive([env, origin, url, contentKey], (live) => {
    if (!url) {
      setText({ phase: 'ready', current: null, approved: null, files: null });
      return;
    }
    setText({ phase: 'loading' });
    env.client
      .skillText(origin, url)
      .then((res) => live() && setText({ phase: 'ready', current: res.current, approved: res.approved, files: res.files ?? null }))
      .catch((err: unknown) => live() && setText({ phase: 'error', message: errorText(err) }));
  });
  return text;
}

function Rendered({ text, baseUrl }: { text: string; baseUrl: string | null }) {
  const html = useMemo(() => renderSkillMarkdown(text, document, baseUrl ? { baseUrl } : {}), [text, baseUrl]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderSkillMarkdown returns HTML sanitized by DOMPurify with remote loads removed (lib/render/markdown.ts)
  return <div class="markdown" data-testid="rendered" dangerouslySetInnerHTML={{ __html: html }} />;
}

function ContentBody({ text, raw, skill }: { text: TextState; raw: boolean; skill: SkillReport }) {
  if (text.phase === 'loading') return <Loading text={t('loading_text')} />;
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
