// The "Export for upload" button with the reasons of a refusal, and the line that says when a skill
// was exported and whether that copy is out of date.
import { useId } from 'preact/hooks';
import type { ExportStatus } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { formatDate } from './format';
import type { SkillExporter } from './use-export';

export function ExportButton({ exporter, origin, url, name, disabled = false }: { exporter: SkillExporter; origin: string; url: string; name: string; disabled?: boolean }) {
  const problemsId = useId();
  const problems = exporter.problemsOf(origin, url);
  return (
    <>
      <button
        type="button"
        disabled={disabled || exporter.busy}
        onClick={() => void exporter.run(origin, url)}
        title={t('export_upload_title')}
        aria-label={t('export_upload_for', display(name, NAME_MAX))}
        aria-describedby={problems ? problemsId : undefined}
        data-action="export"
      >
        {t('export_upload')}
      </button>
      {problems && (
        <div class="export-problems" id={problemsId} data-testid="export-problems">
          <p class="hint">{t('export_refused')}</p>
          <ul class="diagnostics">
            {problems.map((p, i) => (
              <li key={i} class="diag-error">
                {p}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** "Exported for upload …", or the out-of-date warning; nothing when the skill was never exported. */
export function ExportNote({ status, outOfDate }: { status: ExportStatus | null; outOfDate?: boolean }) {
  if (!status) return null;
  const stale = outOfDate ?? status.outOfDate;
  return stale ? (
    <p class="approval approval-suspended" data-testid="export-outdated">
      {t('export_outdated', formatDate(status.exportedAt))}
    </p>
  ) : (
    <p class="hint" data-testid="export-current">
      {t('export_on', formatDate(status.exportedAt))}
    </p>
  );
}
