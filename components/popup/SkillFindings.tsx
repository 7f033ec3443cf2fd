// What the skill can do, on its card, before anything else (PRODUCT.md §6.1): one line per kind of
// finding, most serious first, each opening to its places. Every kind that acts on its own is
// shown; past three lines the rest fold under a count, so many things worth a look never bury one
// that acts. A skill with no findings gets no line here: the card never calls it safe.
import type { SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { tn } from '../../lib/i18n/plural';
import { FindingPlaces, SeverityBadge } from '../shared/Findings';
import { groupByKind, kindWords, needsConfirmation, type KindGroup } from '../shared/finding-words';
import { ConfirmFindingsButton, type SkillActions } from '../shared/actions';

/** Lines on the card before the rest fold, unless more kinds than that act on their own. */
export const CARD_LINES = 3;
/** Places listed under one line of the card (the details list them all). */
const CARD_PLACES = 5;

/** One line per kind, each opening to its places. */
function KindLines({ groups }: { groups: KindGroup[] }) {
  return (
    <ul class="finding-lines">
      {groups.map((group) => (
        <li key={group.kind} class={`finding-line finding-${group.severity}`} data-kind={group.kind} data-severity={group.severity}>
          <details>
            <summary>
              <SeverityBadge severity={group.severity} /> <span class="finding-words">{kindWords(group.kind)}</span> <span class="hint">· {tn('findings_places', group.findings.length)}</span>
            </summary>
            <FindingPlaces findings={group.findings} max={CARD_PLACES} />
          </details>
        </li>
      ))}
    </ul>
  );
}

export function CardFindings({ skill }: { skill: SkillReport }) {
  const findings = skill.review?.findings ?? [];
  if (findings.length === 0) return null;
  const groups = groupByKind(findings);
  const acting = groups.filter((g) => g.severity === 'acts').length;
  const shown = groups.slice(0, Math.max(acting, CARD_LINES));
  const rest = groups.slice(shown.length);
  return (
    <div class="card-findings" role="group" aria-label={t('findings_card_label')} data-testid="card-findings">
      <KindLines groups={shown} />
      {rest.length > 0 && (
        <details class="findings-more" data-testid="findings-more">
          <summary>{tn('findings_more', rest.length)}</summary>
          <KindLines groups={rest} />
        </details>
      )}
      {skill.review?.truncated && <p class="hint">{t('findings_truncated')}</p>}
    </div>
  );
}

/** An approved skill whose findings that act or can act are not all confirmed: says so, with Confirm. */
export function NeedsConfirmation({ skill, actions }: { skill: SkillReport; actions: SkillActions }) {
  if (!needsConfirmation(skill)) return null;
  return (
    <div class="needs-confirmation" data-testid="needs-confirmation">
      <p>
        <strong>
          <span aria-hidden="true">‼ </span>
          {t('needs_confirmation')}
        </strong>{' '}
        {t('needs_confirmation_note')}
      </p>
      <ConfirmFindingsButton busy={actions.busy} name={skill.name} primary onClick={() => actions.confirm(skill)} />
    </div>
  );
}
