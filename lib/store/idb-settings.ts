// The user's settings in the trust store: unusable fields read as their defaults and are
// reported, the stored record is kept as it is.
import type { Settings } from '../types';
import { StoreError } from './errors';
import type { StoreCore } from './idb-core';
import { SETTINGS_KEY } from './schema';
import { isCompleteSettings, pickSettings, readSettings } from './settings';

export async function getSettings(core: StoreCore): Promise<Settings> {
  const raw: unknown = await core.read(['settings'], (tx) => tx.objectStore('settings').get(SETTINGS_KEY));
  const { settings, invalid } = readSettings(raw);
  if (invalid.length > 0) {
    core.report(
      new StoreError('corrupt-record', `settings: unusable ${invalid.join(', ')} replaced by defaults (the stored record is kept)`, {
        store: 'settings',
        key: SETTINGS_KEY,
      }),
    );
  }
  return settings;
}

export async function putSettings(core: StoreCore, settings: Settings): Promise<void> {
  if (!isCompleteSettings(settings)) throw new StoreError('invalid-input', 'settings do not have the shape of Settings; nothing was written');
  const record = pickSettings(settings);
  await core.write(['settings'], (tx) => tx.objectStore('settings').put(record, SETTINGS_KEY));
}
