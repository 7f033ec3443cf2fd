// The background's behaviour, free of extension APIs: every browser call goes through
// BackgroundPlatform (deps.ts), so the same code runs in Chrome's service worker, Firefox's
// event page and node tests. entrypoints/background/ only wires events to it.
//
// Where things live: create-worker-state.ts (the worker's state and caches), dispatch.ts (the message
// gate), handlers/ (one slice per concern: reports, approvals, keys, settings, transfer, desktop),
// events.ts (browser events), skill-access.ts (reports, bytes, contexts),
// desktop-sync.ts (the desktop mirror, kept after every change).
import { createWorkerState } from './create-worker-state';
import type { BackgroundDeps, BackgroundService } from './deps';
import { createDispatch } from './dispatch';
import { createEvents } from './events';
import { createHandlers } from './handlers';

export type { BackgroundDeps, BackgroundPlatform, BackgroundService } from './deps';
export { QUIET_REVISIT_MS, REVALIDATE_ALARM } from './events';

export function createBackgroundService(deps: BackgroundDeps): BackgroundService {
  const worker = createWorkerState(deps);
  return {
    // Ready once the store is open and the organisation's policy is known (or has not answered for
    // READY_POLICY_WAIT_MS: then the gates refuse until it does).
    ready: worker
      .store()
      .then(() => worker.policySettled())
      // A worker that starts syncs the desktop mirror once (it may have stopped mid-run).
      .then(() => worker.desktop.changed({ force: true })),
    handleMessage: createDispatch(worker, createHandlers(worker)),
    ...createEvents(worker),
    refreshMenus: () => worker.refreshMenus(),
    // Through the gate like every probe: the background's own re-check of an origin.
    probe: (origin) => worker.probes.probe('recheck', origin, { kind: 'background' }),
    idle: async () => {
      await worker.probes.idle();
      await worker.desktop.settled();
    },
  };
}
