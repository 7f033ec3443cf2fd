// Everything about one skill: the SKILL.md (rendered safely, or raw), the exact
// status code, digests, signature, key, advisory flags, and for a changed skill
// the diff against the approved text.
import { Fragment } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { OriginReport, SkillReport } from '../../lib/types';
import type { SkillText } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { renderSkillMarkdown } from '../../lib/render/markdown';
import { StatusChip } from '../shared/StatusChip';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatBytes, formatTokens, sourceLabel } from '../shared/format';
import { statusExplanation } from '../shared/status';
import type { PopupEnv } from './env';
import type { SkillActions } from './actions';
import { ApprovalLine, ExportLine, SkillButtons } from './SkillCard';
import { SkillDiff } from './SkillDiff';
import type { ChatTab } from './target';

interface Props {
  env: PopupEnv;
  report: OriginReport;
  skill: SkillReport;
  actions: SkillActions;
  chatTab: ChatTab | null;
  onBack: () => void;
}

type TextState = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; current: SkillText | null; approved: SkillText | null };

function safeHttpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

function Rendered({ text, baseUrl }: { text: string; baseUrl: string | null }) {
  const html = useMemo(() => renderSkillMarkdown(text, document, baseUrl ? { baseUrl } : {}), [text, baseUrl]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderSkillMarkdown returns HTML sanitized by DOMPurify with remote loads removed (lib/render/markdown.ts)
  return <div class="markdown" data-testid="rendered" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function SkillDetails({ env, report, skill, actions, chatTab, onBack }: Props) {
  const [text, setText] = useState<TextState>({ phase: 'loading' });
  const [raw, setRaw] = useState(false);
  const backRef = useRef<HTMLButtonElement>(null);
  const url = skill.url;

  useEffect(() => {
    backRef.current?.focus();
  }, []);

  useEffect(() => {
    let live = true;
    if (!url) {
      setText({ phase: 'ready', current: null, approved: null });
      return;
    }
    setText({ phase: 'loading' });
    env.client
      .skillText(report.origin, url)
      .then((res) => live && setText({ phase: 'ready', current: res.current, approved: res.approved }))
      .catch((err: unknown) => live && setText({ phase: 'error', message: errorText(err) }));
    return () => {
      live = false;
    };
  }, [env, report.origin, url, skill.actual?.lf]);

  const keyFp = report.key.pinned?.fingerprint ?? report.key.offered?.fingerprint ?? null;
  const showDiff =
    text.phase === 'ready' && text.current && text.approved && text.approved.digestLf !== text.current.digestLf;
  const reviewed = skill.status === 'content-changed' && Boolean(showDiff);
  const homepage = safeHttpUrl(skill.homepage);

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
      <ApprovalLine skill={skill} />
      <ExportLine skill={skill} origin={report.origin} actions={actions} />

      {showDiff && text.phase === 'ready' && text.current && text.approved && (
        <section class="section" aria-labelledby="diff-title">
          <h3 id="diff-title">{t('changes_title')}</h3>
          <SkillDiff oldText={text.approved.text} newText={text.current.text} />
        </section>
      )}

      <SkillButtons skill={skill} actions={actions} chatTab={chatTab} origin={report.origin} reviewed={reviewed} />
      {skill.status === 'content-changed' && !showDiff && text.phase === 'ready' && (
        <p class="hint">{t('diff_unavailable')}</p>
      )}

      {skill.advisory.length > 0 && (
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
      )}

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
        {text.phase === 'loading' && (
          <p class="loading" aria-busy="true">
            {t('loading_text')}
          </p>
        )}
        {text.phase === 'error' && <p class="error">{t('text_error', text.message)}</p>}
        {text.phase === 'ready' && !text.current && <p class="hint">{t('no_text', skill.statusMessage || skill.status)}</p>}
        {text.phase === 'ready' && text.current &&
          (raw ? (
            <pre class="raw" tabIndex={0} data-testid="raw">
              {text.current.text}
            </pre>
          ) : (
            <Rendered text={text.current.text} baseUrl={skill.url} />
          ))}
      </section>

      <section class="section" aria-labelledby="facts-title">
        <h3 id="facts-title">{t('facts_title')}</h3>
        <dl class="facts">
          <dt>{t('fact_url')}</dt>
          <dd class="break">{skill.url ?? skill.rawUrls.join(', ')}</dd>
          {skill.crossOrigin && skill.artifactHost && (
            <>
              <dt>{t('fact_host')}</dt>
              <dd>{t('hosted_on', skill.artifactHost)}</dd>
            </>
          )}
          <dt>{t('fact_sources')}</dt>
          <dd>{skill.sources.map(sourceLabel).join(', ') || t('unknown')}</dd>
          <dt>{t('fact_type')}</dt>
          <dd>{skill.archive ? `${skill.type} (${skill.archive.format}, ${skill.archive.entries.length})` : skill.type}</dd>
          {skill.version && (
            <>
              <dt>{t('fact_version')}</dt>
              <dd>{skill.version}</dd>
            </>
          )}
          {skill.license && (
            <>
              <dt>{t('fact_license')}</dt>
              <dd>{skill.license}</dd>
            </>
          )}
          {homepage && (
            <>
              <dt>{t('fact_homepage')}</dt>
              <dd class="break">
                <a href={homepage} target="_blank" rel="noopener noreferrer">
                  {homepage}
                </a>
              </dd>
            </>
          )}
          {skill.tool && (
            <>
              <dt>{t('fact_tool')}</dt>
              <dd class="break">
                {skill.tool.path} <span class="hint">{t('tool_never_run')}</span>
              </dd>
            </>
          )}
          <dt>{t('fact_size')}</dt>
          <dd>
            {formatBytes(skill.size)} · {formatTokens(skill.tokens)}
          </dd>
        </dl>
      </section>

      <section class="section" aria-labelledby="integrity-title">
        <h3 id="integrity-title">{t('integrity_title')}</h3>
        <dl class="facts stacked">
          {skill.declared.length === 0 && (
            <>
              <dt>{t('declared')}</dt>
              <dd>{t('declared_none')}</dd>
            </>
          )}
          {skill.declared.map((d, i) => (
            <Fragment key={i}>
              <dt>
                {t('declared')} ({sourceLabel(d.source)}, {d.field})
              </dt>
              <dd class="hex">{d.hex}</dd>
            </Fragment>
          ))}
          <dt>{t('actual_raw')}</dt>
          <dd class="hex">{skill.actual?.raw ?? t('unknown')}</dd>
          <dt>{t('actual_lf')}</dt>
          <dd class="hex">{skill.actual?.lf ?? t('unknown')}</dd>
          {skill.actual && (
            <>
              <dt>{t('matched_form')}</dt>
              <dd>{skill.actual.matchedForm ?? t('matched_none')}</dd>
            </>
          )}
          <dt>{t('signature')}</dt>
          <dd data-testid="signature-state">
            <code>{skill.signature.state}</code>
            {skill.signature.message && ` — ${skill.signature.message}`}
          </dd>
          <dt>{t('key_fingerprint')}</dt>
          <dd>{keyFp ? <Fingerprint value={keyFp} /> : t('key_none')}</dd>
          {skill.attestation && (
            <>
              <dt>{t('attestation')}</dt>
              <dd>
                <code>{skill.attestation.verdict}</code> {skill.attestation.attester ?? ''} — {skill.attestation.message}
              </dd>
            </>
          )}
          {skill.snapshot && (
            <>
              <dt>{t('snapshot')}</dt>
              <dd>
                <code>{skill.snapshot.state}</code> {skill.snapshot.revision ?? ''} — {skill.snapshot.message}
              </dd>
            </>
          )}
        </dl>
      </section>

      {skill.diagnostics.length > 0 && (
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
      )}
    </article>
  );
}
