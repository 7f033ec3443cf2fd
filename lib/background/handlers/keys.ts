// Keys: trust a publisher's new key, list and forget pins, the key history, revoke a key.
import { isApprovable } from '../../types';
import { normalizeFilter, pageLimit, pinsPage } from '../../types/pins-page';
import { StoreError } from '../../store/errors';
import { managedKeyFor } from '../../store/policy';
import type { CarryOver } from '../../store/store-api';
import type { WorkerState } from '../worker-state';
import { reportFor } from '../skill-access';
import { fail, withPolicy, type Slice } from './types';
import { t } from '../../i18n';

export function keyHandlers(worker: WorkerState): Slice<'keys'> {
  const { probes, clock } = worker;
  return {
    // Under a policy not known yet, the administrator may have pinned this origin's key.
    'skillpin:trust-key': withPolicy(worker, async (req, sender, policy) => {
      const s = await worker.storeOf(await worker.isPrivate(req.origin, sender));
      const report = await reportFor(worker, req.origin, sender);
      if (managedKeyFor(policy, req.origin)) return fail('key-managed', t('err_key_managed'));
      const offered = report.key.offered;
      if (!offered || offered.fingerprint !== req.newFingerprint) return fail('key-not-offered', t('err_key_not_offered'));
      if (report.key.state === 'conflict') return fail('key-conflict', t('err_key_conflict'));
      if (report.key.state === 'revoked') return fail('key-revoked', t('err_key_revoked'));
      // PRODUCT.md §5: approvals whose bytes are unchanged carry over to the new key. The digest a
      // skill has now is the one its bytes passed (every status from key-changed on has passed it).
      // An archive carries its approval only with the same files (FORMATS.md §6.6).
      const carry: CarryOver[] = report.skills.flatMap((skill) =>
        skill.url && skill.actual && (skill.status === 'key-changed' || isApprovable(skill.status))
          ? [{ url: skill.url, digestLf: skill.actual.lf, filesDigest: skill.archive?.filesDigest ?? '' }]
          : [],
      );
      let replaced: boolean;
      try {
        replaced = await s.replacePin(req.origin, req.expectedFingerprint, offered.key, offered.fingerprint, clock.now(), carry);
      } catch (e) {
        if (e instanceof StoreError && e.code === 'key-revoked') return fail('key-revoked', t('err_key_revoked'));
        throw e;
      }
      if (!replaced) return fail('pin-changed', t('err_pin_changed'));
      await probes.probe('after-trust-key', req.origin, { kind: 'request', sender });
      return { ok: true };
    }),
    'skillpin:pins-list': async () => (await worker.store()).listPins(),
    'skillpin:pins-page': async (req) => {
      const s = await worker.store();
      // Without a filter, one page is read through the store's key; a filter looks at every pin.
      if (normalizeFilter(req.filter) !== '') return pinsPage(await s.listPins(), req);
      const offset = Math.max(0, req.offset);
      const page = await s.pinsPage(offset, pageLimit(req));
      return { items: page.items, offset: Math.min(offset, page.total), matching: page.total, total: page.total };
    },
    'skillpin:pin-forget': async (req) => {
      await (await worker.store()).forgetPin(req.origin);
      return { ok: true };
    },
    'skillpin:key-history': async () => (await worker.store()).listKeyHistory(),
    'skillpin:key-revoke': async (req, sender) => {
      const s = await worker.storeOf(await worker.isPrivate(req.origin, sender));
      await s.revokeKey(req.origin, req.fingerprint, clock.now());
      // The origin's report must show the revocation at once (its skills signed by that key are blocked).
      if (await s.getReport(req.origin)) await probes.probe('after-key-revoke', req.origin, { kind: 'request', sender }).catch(() => undefined);
      return { ok: true };
    },
  };
}
