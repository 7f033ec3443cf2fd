// Settings are read from the store once and kept in memory until a write or an import changes
// them (the only writers). A restarted worker starts empty and reads them again.
import type { TrustStore } from '../store/store-api';
import { effectiveSettings, noPolicy, type ManagedPolicy } from '../store/policy';
import type { Settings } from '../types';

export interface SettingsCache {
  /** The user's own settings, as stored: what writes start from and what an export carries. */
  user(): Promise<Settings>;
  /**
   * What everything that acts on settings reads: the user's settings overlaid by the managed ones.
   * While the policy is not known this is the user's own: the gates refuse on their own then.
   */
  effective(): Promise<Settings>;
  write(settings: Settings): Promise<void>;
  /** Something else wrote the settings (an import): read them again, as stored. */
  forget(): void;
}

export function settingsCache(getStore: () => Promise<TrustStore>, getPolicy: () => Promise<ManagedPolicy | null>): SettingsCache {
  let read: Promise<Settings> | null = null;

  async function user(): Promise<Settings> {
    if (!read) {
      const reading = getStore().then((s) => s.getSettings());
      read = reading;
      reading.catch(() => {
        if (read === reading) read = null;
      });
    }
    // Each caller gets its own copy: nothing can change the kept settings by accident.
    return structuredClone(await read);
  }

  return {
    user,
    effective: async () => {
      const [mine, policy] = await Promise.all([user(), getPolicy()]);
      return effectiveSettings(mine, policy ?? noPolicy());
    },
    write: async (settings) => {
      const s = await getStore();
      read = null;
      try {
        await s.putSettings(settings);
      } finally {
        // Read again next time, as stored (whether the write succeeded or not).
        read = null;
      }
    },
    forget: () => {
      read = null;
    },
  };
}
