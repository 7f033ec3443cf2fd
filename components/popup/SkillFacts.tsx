// The details view's facts. First what the skill is: where it comes from, its type, its size and
// what Copy and Insert hand on. Then, folded below the plain verdict, how Skillpin checked it, for
// whoever wants to see it: the checksums the site declared (grouped: the same value listed five
// times is one line saying where it was listed), the file's own checksum, whether the signature
// checks out and the site's key, once, in groups of four; each value in monospace with a copy
// button. The status code and the engine's notes for the publisher come last.
import { Diagnostics } from '../shared/Placeholders';
import type { DeclaredDigest, SkillReport } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import { tn } from '../../lib/i18n/plural';
import type { WriteClipboard } from '../shared/clipboard';
import { CopyButton } from '../shared/CopyButton';
import { Fact } from '../shared/Fact';
import { Fingerprint } from '../shared/Fingerprint';
import { formatExactBytes, contextBreakdown } from '../shared/format';
import { documentLabel } from '../../lib/i18n/document';
import { isHttpUrl, urlOf } from '../../lib/origin';

function safeHttpUrl(value: string | null): string | null {
  const u = value ? urlOf(value) : null;
  return u && isHttpUrl(u) ? u.href : null;
}

/** What the skill is; each optional term is drawn with its value or not at all. */
export function FactsSection({ skill }: { skill: SkillReport }) {
  const homepage = safeHttpUrl(skill.homepage);
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

const FIELD: Record<DeclaredDigest['field'], MessageKey> = {
  'inline-sha256': 'digest_field_inline',
  'index-digest': 'digest_field_digest',
  'index-sha256': 'digest_field_sha256',
};

const SIGNATURE: Record<SkillReport['signature']['state'], MessageKey> = {
  valid: 'signature_valid',
  invalid: 'signature_invalid',
  missing: 'signature_missing',
  'not-signing': 'signature_not_signing',
  'not-checked': 'signature_not_checked',
};

/** The declared checksums, one group per distinct value, each with where it was declared. */
export function digestGroups(declared: readonly DeclaredDigest[]): { hex: string; where: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const d of declared) {
    const hex = d.hex.toLowerCase();
    const where = `${documentLabel(d.source)} (${t(FIELD[d.field])})`;
    groups.set(hex, [...(groups.get(hex) ?? []), where]);
  }
  return [...groups].map(([hex, where]) => ({ hex, where }));
}

/** One sentence on the declared checksums: all match, none declared, or they do not. */
function digestSummary(skill: SkillReport): string {
  const n = skill.declared.length;
  if (n === 0) return t('evidence_declared_none');
  if (skill.status === 'sources-disagree') return tn('evidence_declared_disagree', n);
  if (skill.status === 'digest-mismatch' || !skill.actual) return tn('evidence_declared_mismatch', n);
  return tn('evidence_declared_match', n);
}

function Hex({ value, what, clipboard }: { value: string; what: string; clipboard: WriteClipboard }) {
  const groups = value.match(/.{1,8}/g) ?? [value];
  return (
    <span class="hex-value">
      <code class="hex" data-hex={value}>
        {groups.map((g, i) => (
          <span class="hex-group" key={i}>
            {g}
          </span>
        ))}
      </code>
      <CopyButton value={value} what={what} clipboard={clipboard} />
    </span>
  );
}

const MATCHED = { raw: 'evidence_matched_raw', 'lf-normalized': 'evidence_matched_lf' } as const satisfies Record<string, MessageKey>;

function Checksums({ skill, clipboard }: { skill: SkillReport; clipboard: WriteClipboard }) {
  const actual = skill.actual;
  const matched = actual?.matchedForm ? t(MATCHED[actual.matchedForm]) : null;
  return (
    <>
      <Fact term={t('evidence_checksums')}>
        <p data-testid="digest-summary">{digestSummary(skill)}</p>
        {digestGroups(skill.declared).map((g) => (
          <div class="digest" key={g.hex} data-testid="declared-digest">
            <Hex value={g.hex} what={t('evidence_declared_value')} clipboard={clipboard} />
            <p class="hint">{t('evidence_declared_in', g.where.join(', '))}</p>
          </div>
        ))}
      </Fact>
      {actual && (
        <Fact term={t('evidence_file_checksum')}>
          <Hex value={actual.raw} what={t('evidence_file_checksum')} clipboard={clipboard} />
          {actual.lf !== actual.raw && (
            <>
              <p class="hint">{t('evidence_lf_checksum')}</p>
              <Hex value={actual.lf} what={t('evidence_lf_checksum')} clipboard={clipboard} />
            </>
          )}
          {matched && <p class="hint">{matched}</p>}
        </Fact>
      )}
    </>
  );
}

/** `keyFp`: the origin's pinned key, else the one it offers, else null. */
export function EvidenceSection({ skill, keyFp, clipboard }: { skill: SkillReport; keyFp: string | null; clipboard: WriteClipboard }) {
  return (
    <details class="section evidence" data-testid="evidence">
      <summary>
        <h3>{t('evidence_title')}</h3>
      </summary>
      <dl class="facts stacked">
        <Checksums skill={skill} clipboard={clipboard} />
        <Fact term={t('signature')} data-testid="signature-state" data-state={skill.signature.state}>
          {t(SIGNATURE[skill.signature.state])}
        </Fact>
        <Fact term={t('evidence_site_key')}>
          {keyFp ? (
            <span class="hex-value">
              <Fingerprint value={keyFp} />
              <CopyButton value={keyFp} what={t('evidence_site_key')} clipboard={clipboard} />
            </span>
          ) : (
            t('key_none')
          )}
        </Fact>
        {skill.attestation && (
          <Fact term={t('attestation')}>
            <code>{skill.attestation.verdict}</code> {skill.attestation.attester ?? ''}
          </Fact>
        )}
        {skill.snapshot && (
          <Fact term={t('snapshot')}>
            <code>{skill.snapshot.state}</code> {skill.snapshot.revision ?? ''}
          </Fact>
        )}
        <Fact term={t('status_code')}>
          <code data-testid="status-code">{skill.status}</code>
          {skill.statusCode !== skill.status && (
            <>
              {' · '}
              <code>{skill.statusCode}</code>
            </>
          )}
        </Fact>
      </dl>
      {skill.diagnostics.length > 0 && (
        <>
          <h4>{t('diagnostics_title')}</h4>
          <p class="hint">{t('diagnostics_for_publisher')}</p>
          <Diagnostics items={skill.diagnostics} leveled lang="en" />
        </>
      )}
    </details>
  );
}
