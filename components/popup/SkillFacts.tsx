// The details view's facts: where the skill comes from and what it is, its size and what Copy
// and Insert hand on. What was checked is in SkillEvidence.tsx.
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { formatExactBytes, contextBreakdown, sourceLabel } from '../shared/format';

function safeHttpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Only the facts the skill has: each optional term is drawn with its value or not at all. */
function OptionalFacts({ skill }: { skill: SkillReport }) {
  const homepage = safeHttpUrl(skill.homepage);
  return (
    <>
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
    </>
  );
}

export function FactsSection({ skill }: { skill: SkillReport }) {
  return (
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
        <OptionalFacts skill={skill} />
        <dt>{t('fact_size')}</dt>
        <dd>{formatExactBytes(skill.size)}</dd>
        {skill.contextSize !== null && (
          <>
            <dt>{t('fact_inserted')}</dt>
            <dd data-testid="inserted-size">{contextBreakdown(skill)}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
