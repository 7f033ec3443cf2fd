// A setting named in words, as the options page labels it, wherever Skillpin names one: a refusal
// of a managed setting, the import's preview of settings changes, its result.
import type { Settings } from '../types';
import { t, type MessageKey } from './index';

const NAME: Record<keyof Settings, MessageKey> = {
  paused: 'setting_paused',
  probeInPrivate: 'setting_private',
  allowListOnly: 'setting_allow_only',
  legacyIndex: 'setting_legacy',
  shortHeader: 'setting_short_header',
  allowList: 'setting_allow_list',
  denyList: 'setting_deny_list',
  chatSites: 'setting_chat_sites',
  reviewers: 'setting_reviewers',
  snapshotKeys: 'setting_snapshot_keys',
  desktopMirror: 'setting_desktop_mirror',
  desktopAgents: 'setting_desktop_agents',
  desktopConfirmed: 'setting_desktop_confirmed',
};

/** "Deny list", "Pause checking"; an unknown field is shown as it is. */
export function settingWords(field: string): string {
  return Object.hasOwn(NAME, field) ? t(NAME[field as keyof Settings]) : field;
}

/** Several settings in words, joined for a sentence. */
export function settingsWords(fields: readonly string[]): string {
  return fields.map(settingWords).join(', ');
}
