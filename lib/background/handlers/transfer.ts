// Transfer: export and import of pins, approvals and settings (with the import's preview), and
// a skill's "Export for upload" with the record of what was exported.
import { writeBackup } from '../../store/backup/write';
import { importBackup } from '../../store/backup/import';
import { previewImport } from '../../store/backup/preview';
import { managedFields } from '../../store/policy';
import type { WorkerState } from '../worker-state';
import { policyPendingMessage } from '../hand-off-gate';
import { exportForUpload, exportStatuses } from '../skill-export';
import type { Slice } from './types';

export function transferHandlers(worker: WorkerState): Slice<'transfer'> {
  const { clock } = worker;
  return {
    'skillpin:backup': async () => {
      const s = await worker.store();
      // The user's own settings: a policy's values belong to the organisation, not to the file.
      const json = writeBackup(await s.listPins(), await s.listApprovals(), clock.now(), { keys: await s.listKeyHistory(), settings: await worker.settings.user() });
      return { json };
    },
    'skillpin:import-preview': async (req) => {
      const policy = await worker.policy();
      if (!policy) return { ok: false, errors: [policyPendingMessage()], pins: [], approvals: [], revocations: [], settings: null };
      return previewImport(await worker.store(), req.json, managedFields(policy), policy);
    },
    'skillpin:import': async (req) => {
      // An import writes pins, approvals and settings: none of it under a policy not known yet.
      const policy = await worker.policy();
      if (!policy) return { ok: false, pinsAdded: 0, pinsUnchanged: 0, pinConflicts: [], approvalsAdded: 0, errors: [policyPendingMessage()] };
      worker.settings.forget();
      try {
        const confirmations = { confirmUnverified: req.confirmUnverified ?? [], confirmCrossOrigin: req.confirmCrossOrigin ?? [] };
        const result = await importBackup(await worker.store(), req.json, clock.now(), confirmations, managedFields(policy), policy);
        // The origins the file added pins or approvals for are probed (not awaited: the answer does
        // not wait for the network), so their reports show what was imported.
        for (const origin of result.changedOrigins ?? []) void worker.probes.probe('after-import', origin, { kind: 'background' }).catch(() => undefined);
        return result;
      } finally {
        // The file may have written settings: read them again, as stored.
        worker.settings.forget();
        await worker.refreshMenusSafe();
      }
    },
    'skillpin:skill-export': async (req, sender) => exportForUpload(worker, req.origin, req.url, sender),
    'skillpin:exports-list': async () => exportStatuses(worker),
  };
}
