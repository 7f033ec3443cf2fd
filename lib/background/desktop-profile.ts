// This browser profile's id for the desktop program (docs/desktop.md): made once, at random, and
// kept in the profile's storage.local, so two profiles of one extension (the same extension id,
// the same caller for the program) keep their skills apart in the mirror. Sent in every message.
import { PROFILE_ID } from '../desktop/protocol/wire';
import type { BackgroundPlatform } from './deps';

/** storage.local: this profile's id (32 lowercase hex digits). */
export const DESKTOP_PROFILE_KEY = 'skillpin:desktop-profile';

export type ProfileStorage = Pick<BackgroundPlatform, 'getLocal' | 'setLocal'>;

let pending: Promise<string> | null = null;

async function load(storage: ProfileStorage): Promise<string> {
  const kept = await storage.getLocal(DESKTOP_PROFILE_KEY).catch(() => null);
  if (typeof kept === 'string' && PROFILE_ID.test(kept)) return kept;
  const id = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await storage.setLocal(DESKTOP_PROFILE_KEY, id);
  return id;
}

/** The profile's id: the kept one, or a new one kept now. Concurrent callers get the same id. */
export function desktopProfileId(storage: ProfileStorage): Promise<string> {
  const p = pending ?? load(storage);
  pending = p;
  // Read again next time (a test or an import may change storage); only the calls in flight share one.
  void p
    .finally(() => {
      if (pending === p) pending = null;
    })
    .catch(() => undefined);
  return p;
}
