// The report of any probed origin: a summary in words, and the whole report as JSON one click away
// (for publishers: copy or download).
import { useState } from 'preact/hooks';
import { useLive, useList } from '../shared/use-list';
import { listPlaceholder } from './PagedTable';
import type { OriginReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { ReportSummary } from './ReportSummary';

export function reportFilename(origin: string): string {
  const safe = origin.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_');
  return `skillpin-report-${safe}.json`;
}

export function DiagnosticsSection({ env, initialOrigin }: { env: OptionsEnv; initialOrigin?: string | null }) {
  const announce = useAnnounce();
  const [origin, setOrigin] = useState<string>(initialOrigin ?? '');
  const [report, setReport] = useState<{ origin: string; json: string; report: OriginReport } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const list = useList(() => env.client.reportsList().then((items) => [...items].sort((a, b) => a.origin.localeCompare(b.origin))), [env]);

  useLive([env, origin], (live) => {
    if (!origin) {
      setReport(null);
      return;
    }
    setError(null);
    env.client
      .report(origin)
      .then((r: OriginReport | null) => {
        if (!live()) return;
        if (r) setReport({ origin, json: JSON.stringify(r, null, 2), report: r });
        else {
          setReport(null);
          setError(t('diag_no_report', origin));
        }
      })
      .catch((err: unknown) => live() && setError(t('diag_error', errorText(err))));
  });

  async function copy() {
    if (!report) return;
    if (await env.clipboard(report.json)) announce(t('diag_copied'), 'success');
    else announce(t('copy_clipboard_denied'), 'error');
  }

  const placeholder = listPlaceholder(list, t('diag_empty'));
  if (placeholder !== null || list.phase !== 'ready') return placeholder;
  return (
    <div class="diag">
      <div class="field">
        <label for="diag-origin">{t('diag_pick')}</label>
        <select id="diag-origin" value={origin} onChange={(e) => setOrigin(e.currentTarget.value)}>
          <option value="">{t('diag_choose')}</option>
          {list.items.map((o) => (
            <option key={o.origin} value={o.origin}>
              {t('diag_option', o.origin, o.total, o.warnings)}
            </option>
          ))}
        </select>
      </div>
      {error && <p class="error">{error}</p>}
      {report && (
        <>
          <div class="actions">
            <button type="button" onClick={() => void copy()} data-action="copy-json">
              {t('copy_json')}
            </button>
            <button type="button" onClick={() => env.download(reportFilename(report.origin), report.json)} data-action="download-json">
              {t('download_json')}
            </button>
            <a class="btn btn-quiet" href={`${env.popupUrl}?origin=${encodeURIComponent(report.origin)}`} target="_blank" rel="noopener noreferrer">
              {t('open_site_view')}
            </a>
          </div>
          <ReportSummary report={report.report} />
          <details class="raw-json">
            <summary>{t('diag_show_json')}</summary>
            <pre class="json" tabIndex={0} aria-label={t('diag_json_label', report.origin)} data-testid="diag-json">
              {report.json}
            </pre>
          </details>
        </>
      )}
    </div>
  );
}
