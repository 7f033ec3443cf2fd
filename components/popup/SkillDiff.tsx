// A line diff of the approved SKILL.md and the new one. Added and removed lines
// carry a +/- marker and a hidden word for screen readers, not only a colour.
import { diffLines } from 'diff';
import { t } from '../../lib/i18n';

export type DiffRow =
  | { kind: 'add' | 'del' | 'same'; text: string; oldNo: number | null; newNo: number | null }
  | { kind: 'skip'; count: number };

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

/** Rows of a line diff, with unchanged stretches beyond `context` lines folded. */
export function diffRows(oldText: string, newText: string, context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 1;
  let newNo = 1;
  for (const part of diffLines(oldText, newText)) {
    for (const text of splitLines(part.value)) {
      if (part.added) rows.push({ kind: 'add', text, oldNo: null, newNo: newNo++ });
      else if (part.removed) rows.push({ kind: 'del', text, oldNo: oldNo++, newNo: null });
      else rows.push({ kind: 'same', text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  const keep = rows.map((r, i) => {
    if (r.kind !== 'same') return true;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) {
      if (rows[j]?.kind !== 'same') return true;
    }
    return false;
  });
  const out: DiffRow[] = [];
  let skipped = 0;
  rows.forEach((r, i) => {
    if (keep[i]) {
      if (skipped) out.push({ kind: 'skip', count: skipped });
      skipped = 0;
      out.push(r);
    } else skipped++;
  });
  if (skipped) out.push({ kind: 'skip', count: skipped });
  return out;
}

const MARK = { add: '+', del: '−', same: ' ' } as const;

export function SkillDiff({ oldText, newText }: { oldText: string; newText: string }) {
  const rows = diffRows(oldText, newText);
  const added = rows.filter((r) => r.kind === 'add').length;
  const removed = rows.filter((r) => r.kind === 'del').length;
  return (
    <section class="diff-wrap" aria-label={t('diff_label')}>
      <p class="diff-summary" data-testid="diff-summary">
        {t('diff_summary', added, removed)}
      </p>
      <p class="diff-legend">
        <span class="diff-add">+ {t('diff_added')}</span> <span class="diff-del">− {t('diff_removed')}</span>
      </p>
      {added === 0 && removed === 0 ? (
        <p>{t('diff_same_lines')}</p>
      ) : (
        <ol class="diff" tabIndex={0} aria-label={t('diff_label')}>
          {rows.map((r, i) =>
            r.kind === 'skip' ? (
              <li key={i} class="diff-skip">
                {t('diff_skipped', r.count)}
              </li>
            ) : (
              <li key={i} class={`diff-${r.kind}`} data-kind={r.kind}>
                <span class="diff-mark" aria-hidden="true">
                  {MARK[r.kind]}
                </span>
                {r.kind !== 'same' && <span class="visually-hidden">{r.kind === 'add' ? t('diff_added') : t('diff_removed')}: </span>}
                <span class="diff-text">{r.text}</span>
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}
