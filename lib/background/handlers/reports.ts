// Reports: whether the background is up, an origin's report, a re-check, the list of origins.
import { skippedReport } from '../../report/skipped-report';
import { reportWithContextHeader } from '../../report/context-header';
import { httpOrigin } from '../../origin';
import type { WorkerState } from '../worker-state';
import { forgetKeptReport, keepReportSoon } from '../kept-report';
import type { Slice } from './types';

/** Chrome's on-click grant, noted when the toolbar popup opens over a tab that shows the origin. */
async function noteClick(worker: WorkerState, tabId: number, origin: string): Promise<void> {
  if (!worker.platform.clickGrantsAccess) return;
  const tabs = await worker.platform.listTabs().catch(() => []);
  if (tabs.some((t) => t.id === tabId && t.url !== null && httpOrigin(t.url) === origin)) worker.access.clicked(tabId, origin);
}

export function reportHandlers(worker: WorkerState): Slice<'reports'> {
  const { probes } = worker;
  return {
    'skillpin:ready': async () => {
      await worker.store();
      // Pages and tests that wait for readiness then meet a known policy whenever the browser gives one.
      await worker.policySettled();
      return { ready: true, version: worker.deps.version };
    },
    'skillpin:report': async (req, sender) => {
      if (req.clickedTab !== undefined) await noteClick(worker, req.clickedTab, req.origin);
      // A site the user does not let Skillpin read is said so, not shown as it was read before
      // (that report stays stored for when access comes back).
      if (!(await worker.access.mayRead(req.origin))) {
        void forgetKeptReport(worker.platform, req.origin);
        return skippedReport(req.origin, 'no-site-access', worker.clock.now());
      }
      // A popup in a private window is answered from the private windows' store.
      const priv = await worker.isPrivate(req.origin, sender, req.clickedTab);
      // While a probe of the origin is running, answer its result rather than the older
      // report (or null): joining the probe in flight starts no new one.
      const found = (await probes.join(req.origin, priv)) ?? (await worker.currentReport(req.origin, priv));
      // The sizes of what Copy and Insert hand on, with the header the settings choose.
      const report = reportWithContextHeader(found, (await worker.settings.effective()).shortHeader);
      // What the popup paints next time before this answer comes (not awaited: it is not the answer).
      keepReportSoon(worker.platform, report, priv);
      return report;
    },
    'skillpin:probe': async (req, sender) => {
      // An explicit re-check passes the probe gate like every probe: nothing is requested from an
      // origin the rules exclude (the popup shows why). The tab named is the one the popup is about.
      const report = await probes.probe('recheck', req.origin, req.tabId === undefined ? { kind: 'request', sender } : { kind: 'request', tabId: req.tabId, sender });
      return reportWithContextHeader(report, (await worker.settings.effective()).shortHeader);
    },
    'skillpin:reports-list': async () => {
      const reports = await (await worker.store()).listReports();
      const out = reports.map((r) => ({
        origin: r.origin,
        finishedAt: r.finishedAt,
        total: r.summary.total,
        usable: r.summary.usable,
        warnings: r.summary.warnings,
        keyState: r.key.state,
      }));
      return out.sort((a, b) => a.origin.localeCompare(b.origin));
    },
  };
}
