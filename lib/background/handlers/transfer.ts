// Transfer: export and import of pins, approvals and settings (with the import's preview), and
// a skill's "Export for upload" with the record of what was exported.
import { exportTrust, importTrust } from '../../trust/export-import';
import { previewImport } from '../../trust/import-preview';
import { managedFields } from '../../trust/managed';
import type { ServiceContext } from '../context';
import { exportForUpload, exportStatuses } from '../skill-export';
import { reportFor } from '../skill-access';
import type { Slice } from './types';

export function transferHandlers(ctx: ServiceContext): Slice<'transfer'> {
  const { platform, clock } = ctx;
  const getLocal = (k: string) => platform.getLocal(k);
  return {
    'skillpin:export': async () => {
      const s = await ctx.store();
      // The user's own settings: a policy's values belong to the organisation, not to the file.
      const json = exportTrust(await s.listPins(), await s.listApprovals(), clock.now(), { keys: await s.listKeyHistory(), settings: await ctx.settings.user() });
      return { json };
    },
    'skillpin:import-preview': async (req) => previewImport(await ctx.store(), req.json, managedFields(await ctx.policy())),
    'skillpin:import': async (req) => {
      ctx.settings.forget();
      try {
        const confirmations = { confirmUnverified: req.confirmUnverified ?? [], confirmCrossOrigin: req.confirmCrossOrigin ?? [] };
        return await importTrust(await ctx.store(), req.json, clock.now(), confirmations, managedFields(await ctx.policy()));
      } finally {
        // The file may have written settings: read them again, as stored.
        ctx.settings.forget();
        await ctx.refreshMenusSafe();
      }
    },
    'skillpin:skill-export': async (req, sender) =>
      exportForUpload(
        {
          store: await ctx.store(),
          report: (o) => reportFor(ctx, o, sender),
          getLocal,
          setLocal: (k, v) => platform.setLocal(k, v),
          now: () => clock.now(),
        },
        req.origin,
        req.url,
      ),
    'skillpin:exports-list': async () => exportStatuses(getLocal, (o) => ctx.currentReport(o)),
  };
}
