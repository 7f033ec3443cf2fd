// The one confirmation an approval asks (PRODUCT.md §6.1): it names every finding that acts or can
// act (its kind in words, its file) and the places the skill may then go, with the confirmations an
// unverified skill or one served by another host need. The same dialog confirms the findings of a
// skill already approved (a newer rule set found more, an approval imported from a backup).
import type { Finding, SkillReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { Dialog } from './Dialog';
import { SeverityBadge } from './Findings';
import { groupByKind, kindWords } from './finding-words';

export type PendingConfirmation =
  /** Approving `skill`: what it needs confirmed (any of them may be absent). */
  | { kind: 'approve'; skill: SkillReport; origin: string; unverified: boolean; crossOrigin: boolean; findings: Finding[] }
  /** Confirming what an approved skill can do. */
  | { kind: 'confirm'; skill: SkillReport; origin: string; findings: Finding[] };

function FindingsToConfirm({ findings, origin }: { findings: Finding[]; origin: string }) {
  return (
    <div class="confirm-reason confirm-findings" data-confirm="findings">
      <p>
        <strong>{t('confirm_findings_head')}</strong>
      </p>
      <ul class="confirm-finding-list" data-testid="confirm-findings">
        {groupByKind(findings).map((g) => (
          <li key={g.kind} data-kind={g.kind} data-severity={g.severity}>
            <SeverityBadge severity={g.severity} /> {kindWords(g.kind)}
            <span class="confirm-files">
              {' — '}
              {/* The files the kind is in, each once, in the review's order. */}
              {[...new Set(g.findings.map((f) => f.file))].map((file, i) => (
                <span key={file}>
                  {i > 0 && ', '}
                  <code>{file}</code>
                </span>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <p>{t('confirm_places_head')}</p>
      <ul class="confirm-places" data-testid="confirm-places">
        <li data-place="chats">{t('confirm_place_chats')}</li>
        <li data-place="desktop">{t('confirm_place_desktop')}</li>
        <li data-place="export">{t('confirm_place_export')}</li>
      </ul>
      <p>{t('confirm_findings_body', origin)}</p>
    </div>
  );
}

/** One extra confirmation: its heading and what it means. */
function Reason({ kind, head, body }: { kind: string; head: string; body: string }) {
  return (
    <div class="confirm-reason" data-confirm={kind}>
      <p>
        <strong>{head}</strong>
      </p>
      <p>{body}</p>
    </div>
  );
}

/** The dialog's title and its confirm button's words. */
function labelsOf(p: PendingConfirmation): { title: string; confirmLabel: string } {
  const name = display(p.skill.name, NAME_MAX);
  if (p.kind === 'confirm') return { title: t('confirm_findings_again_title', name), confirmLabel: t('confirm_findings_allow_again') };
  if (p.findings.length > 0) return { title: t('confirm_findings_title', name), confirmLabel: t('confirm_findings_allow') };
  return { title: t('confirm_title', name), confirmLabel: t('confirm_approve') };
}

/** Cancel approves and confirms nothing. */
export function ApproveDialog({ pending, onConfirm, onCancel }: { pending: PendingConfirmation; onConfirm: () => void; onCancel: () => void }) {
  const host = pending.skill.artifactHost ?? '?';
  return (
    <Dialog {...labelsOf(pending)} cancelLabel={t('cancel')} danger onCancel={onCancel} onConfirm={onConfirm}>
      {pending.kind === 'approve' && pending.unverified && <Reason kind="unverified" head={t('confirm_unverified_head')} body={t('confirm_unverified_body')} />}
      {pending.kind === 'approve' && pending.crossOrigin && <Reason kind="cross-origin" head={t('confirm_cross_head', host)} body={t('confirm_cross_body', pending.origin, host)} />}
      {pending.findings.length > 0 && <FindingsToConfirm findings={pending.findings} origin={pending.origin} />}
    </Dialog>
  );
}
