// Reports: whether the background is up, an origin's report, a re-check, the list of origins.
import type { OriginSummary } from '../../messages';
import { skippedReport } from '../../report/skipped-report';
import { shouldProbe } from '../../scheduler/should-probe';
import type { ServiceContext } from '../context';
import type { Slice } from './types';

export function reportHandlers(ctx: ServiceContext): Slice<'reports'> {
  const { scheduler } = ctx;
  return {
    'skillpin:ready': async () => {
      await ctx.store();
      return { ready: true, version: ctx.deps.version };
    },
    'skillpin:report': async (req) => {
      // While a probe of the origin is running, answer its result rather than the older
      // report (or null): joining the probe in flight starts no new one.
      if (scheduler.inFlight(req.origin)) return scheduler.probe(req.origin, { force: false });
      return ctx.currentReport(req.origin);
    },
    'skillpin:probe': async (req, sender) => {
      // An explicit re-check still honours pause, the private-window rule and the allow/deny
      // lists: nothing is requested from an origin the user excluded (the popup shows why).
      const settings = await ctx.settings.effective();
      const incognito = settings.probeInPrivate ? false : await ctx.privateRequest(req.origin, req.tabId, sender);
      const decision = shouldProbe(req.origin + '/', settings, { incognito });
      if (!decision.probe) return skippedReport(req.origin, decision.reason, ctx.clock.now());
      return scheduler.probe(req.origin, { force: true });
    },
    'skillpin:reports-list': async () => {
      const reports = await (await ctx.store()).listReports();
      const out: OriginSummary[] = reports.map((r) => ({
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
