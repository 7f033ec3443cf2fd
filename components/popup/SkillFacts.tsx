// The details view's facts: where the skill comes from and what it is, its size and what Copy
// and Insert hand on. What was checked is in SkillEvidence.tsx.
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { Fact } from '../shared/Fact';
import { formatExactBytes, contextBreakdown } from '../shared/format';
import { documentLabel } from '../../lib/i18n/document';

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
      {skill.version && <Fact term={t('fact_version')}>{skill.version}</Fact>}
      {skill.license && <Fact term={t('fact_license')}>{skill.license}</Fact>}
      {homepage && (
        <Fact term={t('fact_homepage')} class="break">
          <a href={homepage} target="_blank" rel="noopener noreferrer">
            {homepage}
          </a>
        </Fact>
      )}
      {skill.tool && (
        <Fact term={t('fact_tool')} class="break">
          {skill.tool.path} <span class="hint">{t('tool_never_run')}</span>
        </Fact>
      )}
    </>
  );
}

export function FactsSection({ skill }: { skill: SkillReport }) {
  return (
    <section class="section" aria-labelledby="facts-title">
      <h3 id="facts-title">{t('facts_title')}</h3>
      <dl class="facts">
        <Fact term={t('fact_url')} class="break">
          {skill.url ?? skill.rawUrls.join(', ')}
        </Fact>
        {skill.crossOrigin && skill.artifactHost && <Fact term={t('fact_host')}>{t('hosted_on', skill.artifactHost)}</Fact>}
        <Fact term={t('fact_sources')}>{skill.sources.map(documentLabel).join(', ') || t('unknown')}</Fact>
        <Fact term={t('fact_type')}>{skill.archive ? `${skill.type} (${skill.archive.format}, ${skill.archive.entries.length})` : skill.type}</Fact>
        <OptionalFacts skill={skill} />
        <Fact term={t('fact_size')}>{formatExactBytes(skill.size)}</Fact>
        {skill.contextSize !== null && (
          <Fact term={t('fact_inserted')} data-testid="inserted-size">
            {contextBreakdown(skill)}
          </Fact>
        )}
      </dl>
    </section>
  );
}
