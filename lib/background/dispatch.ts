// The gate every runtime message passes: it must be a well-formed request (lib/messages/),
// a privileged one must come from the extension's own pages, and one that may change trust
// state or settings is announced to open pages afterwards, whether it succeeded or not, and
// brings the desktop mirror up to date.
import { changesOf, isPrivileged, parseRequest, type Request } from '../messages';
import type { WorkerState } from './worker-state';
import type { Handlers } from './handlers/types';
import { isExtensionPage, type SenderLike } from './sender';
import { t } from '../i18n';

export function createDispatch(worker: WorkerState, handlers: Handlers): (message: unknown, sender: SenderLike) => Promise<unknown> {
  return async (message, sender) => {
    const req = parseRequest(message);
    if (!req) return { ok: false, error: 'bad-request', message: t('err_bad_request') };
    if (isPrivileged(req.type) && !isExtensionPage(sender, worker.deps.runtimeId, worker.deps.extensionBase)) return { ok: false, error: 'forbidden', message: t('err_forbidden') };
    const changes = changesOf(req.type);
    if (changes) worker.stateChanged.mark();
    const handler = handlers[req.type] as (r: Request, s: SenderLike) => Promise<unknown>;
    try {
      return await handler(req, sender);
    } catch (err) {
      return { ok: false, error: 'internal', message: err instanceof Error ? err.message : String(err) };
    } finally {
      // Also after a failed write: pages then read again and show what is really stored.
      if (changes) await worker.announce(changes);
      // Trust state or settings changed: the desktop mirror holds exactly what may be used now.
      if (changes) worker.desktop.changed({ force: true });
    }
  };
}
