// What an origin's report says, for people, above its JSON: when it was
// checked, how many skills in which state, each document Skillpin asked for with its result in
// words, and the report's own notes for the publisher (technical, in English).
import { Diagnostics } from '../shared/Placeholders';
import type { OriginReport, SourceReport } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import { documentLabel } from '../../lib/i18n/document';
import { tn } from '../../lib/i18n/plural';
import { formatBytes, formatDate } from '../shared/format';
import { statusLabel } from '../shared/status';

const OUTCOME: Record<SourceReport['outcome'], MessageKey> = {
  ok: 'src_ok',
  'not-modified': 'src_not_modified',
  absent: 'src_absent',
  transient: 'src_transient',
  'too-large': 'src_too_large',
  blocked: 'src_blocked',
  cached: 'src_cached',
  skipped: 'src_skipped',
  invalid: 'src_invalid',
};

function Counts({ report }: { report: OriginReport }) {
  const parts = Object.entries(report.summary.byStatus).map(([status, n]) => `${statusLabel(status as Parameters<typeof statusLabel>[0])}: ${n}`);
  return (
    <p data-testid="report-counts">
      {tn('diag_skills', report.summary.total)}
      {parts.length > 0 && ` (${parts.join(', ')})`}
    </p>
  );
}

export function ReportSummary({ report }: { report: OriginReport }) {
  const notes = report.diagnostics.filter((d) => d.level !== 'info');
  return (
    <div class="report-summary" data-testid="report-summary">
      <p>{report.finishedAt === null ? t('diag_not_finished') : t('diag_checked_at', formatDate(report.finishedAt))}</p>
      <Counts report={report} />
      {report.sources.length > 0 && (
        <table class="table">
          <caption class="visually-hidden">{t('diag_sources')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('diag_col_document')}</th>
              <th scope="col">{t('diag_col_result')}</th>
              <th scope="col">{t('diag_col_size')}</th>
            </tr>
          </thead>
          <tbody>
            {report.sources.map((s, i) => (
              <tr key={i} data-kind={s.kind} data-outcome={s.outcome}>
                <td>
                  {documentLabel(s.kind)}
                  <div class="hint break">{s.url}</div>
                </td>
                <td>
                  {t(OUTCOME[s.outcome])}
                  {s.httpStatus !== null && <span class="hint"> {t('diag_http_status', s.httpStatus)}</span>}
                </td>
                <td class="nowrap">{s.bytes === null ? '' : formatBytes(s.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {notes.length > 0 && (
        <>
          <p>{tn('diag_notes', notes.length)}</p>
          <Diagnostics items={notes} leveled lang="en" />
        </>
      )}
    </div>
  );
}
