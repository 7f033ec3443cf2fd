// Settings: read them, write them whole or by the fields one Save changed, and the
// organisation's policy over them (docs/policies.md).
import type { PolicySummary } from '../../messages';
import { managedConflicts, managedFields, withoutManaged } from '../../store/policy';
import { mergeSettings } from '../../store/settings';
import type { Settings } from '../../types';
import type { WorkerState } from '../worker-state';
import { fail, withPolicy, type Slice } from './types';
import { t } from '../../i18n';
import { settingsWords } from '../../i18n/settings';

export function settingsHandlers(worker: WorkerState): Slice<'settings'> {
  async function write(settings: Settings): Promise<void> {
    await worker.settings.write(settings);
    // The insert menu's patterns follow the chat-site list.
    await worker.refreshMenusSafe();
  }
  return {
    'skillpin:settings-get': async () => worker.settings.effective(),
    // Which fields are the organisation's is not known yet: nothing is written.
    'skillpin:settings-set': withPolicy(worker, async (req, _sender, policy) => {
      // A sender that predates a later field (chatSites, the desktop ones) omits it (the validator
      // allows that): the stored value stays; every other field is in the message.
      const user = await worker.settings.user();
      const settings: Settings = { ...user, ...req.settings };
      // A managed field may be sent only with the policy's value (what settings-get answered);
      // any other value is refused and nothing is written. The user's own value stays stored.
      const conflicts = managedConflicts(settings, policy);
      if (conflicts.length > 0) return fail('managed-setting', t('err_managed_setting', settingsWords(conflicts)));
      await write(mergeSettings(user, withoutManaged(settings, policy)));
      return { ok: true };
    }),
    'skillpin:settings-update': withPolicy(worker, async (req, _sender, policy) => {
      // A change to a field the organisation manages is refused as a whole: nothing is written.
      const conflicts = managedConflicts(req.changes, policy);
      if (conflicts.length > 0) return fail('managed-setting', t('err_managed_setting', settingsWords(conflicts)));
      // Only the fields the user changed, over what is stored now (not over what the page
      // loaded): a value another page saved meanwhile survives.
      await write(mergeSettings(await worker.settings.user(), withoutManaged(req.changes, policy)));
      return { ok: true, settings: await worker.settings.effective() };
    }),
    'skillpin:policy-get': async () => {
      const policy = await worker.policy();
      if (!policy) {
        const problem = worker.policyProblem();
        return { active: true, pending: true, managedFields: [], requireSigned: false, pinnedKeys: [], invalid: problem ? [problem] : [] };
      }
      const fields = managedFields(policy);
      return {
        active: fields.length > 0 || policy.requireSigned || policy.pinnedKeys.length > 0,
        managedFields: fields,
        requireSigned: policy.requireSigned,
        pinnedKeys: policy.pinnedKeys.map((k) => ({ origin: k.origin, fingerprint: k.fingerprint })),
        invalid: [...policy.invalid],
      } satisfies PolicySummary;
    },
    'skillpin:site-access': async (req) => {
      const summary = await worker.access.summary();
      return { ...summary, origin: req.origin === undefined ? null : { origin: req.origin, readable: await worker.access.mayRead(req.origin) } };
    },
  };
}
