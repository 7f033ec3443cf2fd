// The details view's reference sections: where the skill comes from and what it is (facts),
// and what was checked (declared and actual digests, signature, key, attestation, snapshot).
import { Fragment } from 'preact';
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { Fingerprint } from '../shared/Fingerprint';
import { formatBytes, formatTokens, sourceLabel } from '../shared/format';

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
        <dd>
          {formatBytes(skill.size)} · {formatTokens(skill.tokens)}
        </dd>
      </dl>
    </section>
  );
}

/** The digests the listings declared, and the two forms of the digest of what was downloaded. */
function Digests({ skill }: { skill: SkillReport }) {
  return (
    <>
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
    </>
  );
}

/** The attestation and snapshot checks, when the skill had them. */
function ThirdPartyChecks({ skill }: { skill: SkillReport }) {
  return (
    <>
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
    </>
  );
}

/** `keyFp`: the origin's pinned key, else the one it offers, else null. */
export function IntegritySection({ skill, keyFp }: { skill: SkillReport; keyFp: string | null }) {
  return (
    <section class="section" aria-labelledby="integrity-title">
      <h3 id="integrity-title">{t('integrity_title')}</h3>
      <dl class="facts stacked">
        <Digests skill={skill} />
        <dt>{t('signature')}</dt>
        <dd data-testid="signature-state">
          <code>{skill.signature.state}</code>
          {skill.signature.message && ` — ${skill.signature.message}`}
        </dd>
        <dt>{t('key_fingerprint')}</dt>
        <dd>{keyFp ? <Fingerprint value={keyFp} /> : t('key_none')}</dd>
        <ThirdPartyChecks skill={skill} />
      </dl>
    </section>
  );
}
