// The last report per origin (docs/report.md), bounded in number (evict.ts), so the popup can draw
// it after the service worker restarts. A report evicted takes its origin's unapproved skill bytes along.
import type { OriginReport } from '../types';
import { withTotals, type ByteTotals, type TotalsTx } from './byte-totals';
import { checkedInput } from './errors';
import { evictReports, type ReportsTx } from './evict';
import type { StoreCore } from './idb-core';
import { reportOrder, toOriginReport } from './validate';

/** The report as the store keeps it, checked; a report without the shape of an OriginReport is refused. */
export function checkedReport(report: OriginReport): OriginReport {
  return checkedInput(toOriginReport(report), 'report does not have the shape of an OriginReport; nothing was written');
}

export async function putReport(core: StoreCore, report: OriginReport): Promise<void> {
  const r = checkedReport(report);
  await core.write(['reports', 'pins', 'approvals', 'skills', 'totals'], (tx) => withTotals(tx as unknown as TotalsTx, (totals) => putReportInTx(core, tx as unknown as ReportsTx, r, totals)));
}

/** putReport inside the caller's readwrite transaction (report already checked). */
export async function putReportInTx(core: StoreCore, tx: ReportsTx, r: OriginReport, totals: ByteTotals): Promise<void> {
  await tx.objectStore('reports').put({ origin: r.origin, order: reportOrder(r), report: r });
  // An evicted report takes its origin's stored skill bytes with it (and their byte totals).
  await evictReports(tx, core.limits.reports, r.origin, totals);
}
