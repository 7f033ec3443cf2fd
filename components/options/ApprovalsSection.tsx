import { useEffect } from 'preact/hooks';
import { NAME_MAX, display } from '@/lib/render/display';
import type { Approval } from '../../lib/types';
import { t } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { ExportButton, ExportNote } from '../shared/ExportControls';
import { useSkillExport } from '../shared/use-export';
import { formatDate } from '../shared/format';
import { StatusChip } from '../shared/StatusChip';
import { OriginLink } from './OriginLink';
import { withdrawer } from '../shared/use-withdraw';
import type { OptionsEnv } from './env';
import { compareText, listPlaceholder, PagedTable, useSortedList, type CountText } from './PagedTable';

const byOriginThenName = (a: Approval, b: Approval): number => compareText(a.origin, b.origin) || compareText(a.name, b.name);

/** An approval matches a filter (normalized: trimmed, lowercase) by a part of its skill name, origin or URL. */
export function approvalMatches(a: Approval, filter: string): boolean {
  return a.name.toLowerCase().includes(filter) || a.origin.toLowerCase().includes(filter) || a.url.toLowerCase().includes(filter);
}

const COUNT: CountText = { all: 'approvals_showing', filtered: 'approvals_showing_filtered', none: 'approvals_no_match' };

export function ApprovalsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const announce = useAnnounce();
  const state = useSortedList(() => env.client.approvalsList(), byOriginThenName, [env, version]);
  const exporter = useSkillExport(env.client, env.saveFile);
  // A change of trust state elsewhere (a re-check, a new approval) may make an export out of date.
  useEffect(() => exporter.reload(), [version, exporter.reload]);

  const withdraw = withdrawer({ client: env.client, announce, exported: (o, u) => exporter.exportOf(o, u) !== null, onChanged });

  const placeholder = listPlaceholder(state, t('approvals_empty'));
  if (placeholder !== null || state.phase !== 'ready') return placeholder;
  return (
    <PagedTable<Approval>
      testId="approvals"
      caption={t('approvals_title')}
      filterLabel={t('approvals_filter')}
      count={COUNT}
      items={state.items}
      matches={approvalMatches}
      columns={[
        {
          header: t('col_skill'),
          cell: (a) => (
            <>
              <strong>{display(a.name, NAME_MAX)}</strong>
              <div class="hint break">{a.url}</div>
              <ExportNote status={exporter.exportOf(a.origin, a.url)} />
            </>
          ),
        },
        { header: t('col_origin'), cell: (a) => <OriginLink origin={a.origin} popupUrl={env.popupUrl} /> },
        { header: t('col_approved'), cell: (a) => formatDate(a.approvedAt) },
        { header: t('col_status_then'), cell: (a) => <StatusChip status={a.statusAtApproval} /> },
        {
          header: t('col_actions'),
          hideHeader: true,
          cell: (a) => (
            <>
              <ExportButton exporter={exporter} origin={a.origin} url={a.url} name={a.name} />
              <button type="button" class="btn-quiet btn-quiet-danger" onClick={() => void withdraw(a)} aria-label={t('withdraw_for_site', display(a.name, NAME_MAX), a.origin)} data-action="withdraw">
                {t('withdraw')}
              </button>
            </>
          ),
        },
      ]}
      rowKey={(a) => `${a.origin} ${a.url}`}
      rowData={(a) => ({ 'data-url': a.url })}
    />
  );
}
