// A line diff of the approved SKILL.md and the new one. Added and removed lines
// carry a +/- marker and a hidden word for screen readers, not only a colour.
import { diffLines } from 'diff';
import { t } from '../../lib/i18n';
import { tn } from '../../lib/i18n/plural';

export type DiffRow = { kind: 'add' | 'del' | 'same'; text: string; oldNo: number | null; newNo: number | null } | { kind: 'skip'; count: number };

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

/**
 * The most line edits a diff may take. Beyond it (a rewrite, or a 256 KiB file in which
 * every line differs) the diff gives up at once, whatever the machine, and both versions
 * are shown in full instead: a line diff costs time in proportion to lines × edits.
 */
export const MAX_DIFF_EDITS = 1000;

/**
 * Rows of a line diff, with unchanged stretches beyond `context` lines folded; null when
 * the versions differ in more than `maxEdits` lines (show both instead).
 */
export function diffRows(oldText: string, newText: string, context = 3, maxEdits = MAX_DIFF_EDITS): DiffRow[] | null {
  const rows: DiffRow[] = [];
  let oldNo = 1;
  let newNo = 1;
  const parts = diffLines(oldText, newText, { maxEditLength: maxEdits });
  if (parts === undefined) return null;
  for (const part of parts) {
    for (const text of splitLines(part.value)) {
      if (part.added) rows.push({ kind: 'add', text, oldNo: null, newNo: newNo++ });
      else if (part.removed) rows.push({ kind: 'del', text, oldNo: oldNo++, newNo: null });
      else rows.push({ kind: 'same', text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  // A row is kept when it, or a row within `context` of it, is an edit.
  const keep = rows.map((_, i) => rows.slice(Math.max(0, i - context), i + context + 1).some((r) => r.kind !== 'same'));
  const out: DiffRow[] = [];
  for (const [i, r] of rows.entries()) {
    const last = out.at(-1);
    if (keep[i]) out.push(r);
    else if (last?.kind === 'skip') last.count++;
    else out.push({ kind: 'skip', count: 1 });
  }
  return out;
}

const MARK = { add: '+', del: '−', same: ' ' } as const;

/** Both versions in full, side by side, when a line diff would take too long. */
function BothVersions({ oldText, newText }: { oldText: string; newText: string }) {
  return (
    <section class="diff-wrap" aria-label={t('diff_label')} data-testid="diff-both">
      <p class="diff-summary" data-testid="diff-summary">
        {t('diff_too_large')}
      </p>
      <div class="diff-both">
        <figure>
          <figcaption>{t('diff_old_version')}</figcaption>
          <pre tabIndex={0}>{oldText}</pre>
        </figure>
        <figure>
          <figcaption>{t('diff_new_version')}</figcaption>
          <pre tabIndex={0}>{newText}</pre>
        </figure>
      </div>
    </section>
  );
}

export function SkillDiff({ oldText, newText }: { oldText: string; newText: string }) {
  const rows = diffRows(oldText, newText);
  if (rows === null) return <BothVersions oldText={oldText} newText={newText} />;
  const added = rows.filter((r) => r.kind === 'add').length;
  const removed = rows.filter((r) => r.kind === 'del').length;
  return (
    <section class="diff-wrap" aria-label={t('diff_label')}>
      <p class="diff-summary" data-testid="diff-summary">
        {t('diff_summary', tn('diff_lines_added', added), tn('diff_lines_removed', removed))}
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
                {tn('diff_skipped', r.count)}
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
