// Findings on screen (PRODUCT.md §6.1): a severity in words with its marker, the places of a kind of
// finding with the matched text highlighted (always as text, never as markup), and the details
// view's "What this skill can do", every finding grouped by severity, then by kind.
import type { Finding, FindingSeverity, SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { tn } from '../../lib/i18n/plural';
import { findingPlace, groupBySeverity, kindWords, SEVERITY_WORDS, type KindGroup } from './finding-words';

/** A severity in words, with a marker: never colour alone. */
export function SeverityBadge({ severity }: { severity: FindingSeverity }) {
  return (
    <span class={`sev sev-${severity}`} data-severity={severity}>
      <span class="sev-mark" aria-hidden="true">
        {SEVERITY_WORDS[severity].mark}
      </span>
      {t(SEVERITY_WORDS[severity].key)}
    </span>
  );
}

/** Where each finding is, its matched text highlighted; past `max`, how many more the details list. */
export function FindingPlaces({ findings, max }: { findings: readonly Finding[]; max?: number }) {
  const shown = max === undefined ? findings : findings.slice(0, max);
  const more = findings.length - shown.length;
  return (
    <ul class="finding-places">
      {shown.map((f, i) => (
        <li key={i} data-file={f.file} data-line={f.line ?? ''}>
          <span class="finding-place">{findingPlace(f)}</span>
          {f.match && (
            <code class="finding-match" title={t('finding_matched')}>
              <mark>{f.match}</mark>
            </code>
          )}
        </li>
      ))}
      {more > 0 && <li class="hint">{tn('findings_list_more', more)}</li>}
    </ul>
  );
}

/** One kind of finding: its words, how many places, and the places. */
function KindItem({ group }: { group: KindGroup }) {
  return (
    <li class="finding-kind" data-kind={group.kind}>
      <p>
        <strong>{kindWords(group.kind)}</strong> <span class="hint">· {tn('findings_places', group.findings.length)}</span>
      </p>
      <FindingPlaces findings={group.findings} />
    </li>
  );
}

/**
 * The details view's "What this skill can do". No findings never reads as safe: it says only that
 * Skillpin found nothing it knows to warn about, and to read the skill.
 */
export function FindingsSection({ skill }: { skill: SkillReport }) {
  const review = skill.review;
  if (!review && !skill.actual) return null;
  const groups = review ? groupBySeverity(review.findings) : [];
  return (
    <section class="section findings" aria-labelledby="findings-title" data-testid="findings">
      <h3 id="findings-title">{t('findings_title')}</h3>
      {!review && <p class="hint">{t('findings_not_reviewed')}</p>}
      {review && groups.length === 0 && <p data-testid="findings-nothing">{t('findings_nothing')}</p>}
      {groups.length > 0 && <p class="hint">{t('findings_note')}</p>}
      {groups.map((g) => (
        <div class={`findings-severity findings-${g.severity}`} key={g.severity} data-severity={g.severity}>
          <h4>
            <SeverityBadge severity={g.severity} />
          </h4>
          <ul class="finding-kinds">
            {g.kinds.map((k) => (
              <KindItem key={k.kind} group={k} />
            ))}
          </ul>
        </div>
      ))}
      {review?.truncated && <p class="hint">{t('findings_truncated')}</p>}
    </section>
  );
}
