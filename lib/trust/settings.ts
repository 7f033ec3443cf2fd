// Settings are one record, and CHECKS below is the one definition of its shape: the store's
// reads, the import file and the settings messages (lib/messages/) all check with it.
// Reading merges what is stored over DEFAULT_SETTINGS field by field: a missing field takes
// its default, an unknown field is ignored, a field of the wrong type takes its default and
// is reported. Reading settings never fails.
import { DEFAULT_SETTINGS } from '../types';
import type { DesktopConfirmation, ReviewerRegistry, Settings, SnapshotKeyConfig } from '../types';
import { isChatSiteList } from '../chat/sites';
import { DESKTOP_AGENTS, type DesktopAgentId, isDesktopAgentId, migrateAgentList } from '../desktop/agents';
import { isAgentId } from '../desktop/limits';
import { isObject } from './validate';

/** An origin or `*.host` pattern is far shorter; the bound keeps one entry from filling the store. */
const MAX_ENTRY_CHARS = 8192;

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length <= MAX_ENTRY_CHARS);
}

function isReviewerRegistry(v: unknown): v is ReviewerRegistry {
  if (!isObject(v)) return false;
  return Object.values(v).every((r) => isObject(r) && typeof r.public_key === 'string' && typeof r.registered_at === 'string');
}

function isSnapshotKey(v: unknown): v is SnapshotKeyConfig {
  if (!isObject(v)) return false;
  for (const f of ['origin', 'skillId', 'publicKey', 'signature'] as const) if (typeof v[f] !== 'string') return false;
  for (const f of ['keyId', 'revisionPin', 'versionPin'] as const) if (v[f] !== undefined && typeof v[f] !== 'string') return false;
  return true;
}

/** Far more than anyone confirms; the bound keeps the record small. */
export const MAX_DESKTOP_CONFIRMATIONS = 4096;

function isAgentList(v: unknown): v is DesktopAgentId[] {
  return Array.isArray(v) && v.length <= DESKTOP_AGENTS.length && v.every(isDesktopAgentId) && new Set(v).size === v.length;
}

function isHttpOrigin(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > MAX_ENTRY_CHARS) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

function isConfirmation(v: unknown): v is DesktopConfirmation {
  return (
    isObject(v) &&
    Object.keys(v).every((k) => k === 'origin' || k === 'url' || k === 'agent' || k === 'revision') &&
    isHttpOrigin(v.origin) &&
    typeof v.url === 'string' &&
    v.url.length > 0 &&
    v.url.length <= MAX_ENTRY_CHARS &&
    isAgentId(v.agent) &&
    typeof v.revision === 'string' &&
    /^[0-9a-f]{64}$/.test(v.revision)
  );
}

type Checks = { [K in keyof Settings]: (v: unknown) => v is Settings[K] };

const CHECKS: Checks = {
  paused: (v): v is boolean => typeof v === 'boolean',
  probeInPrivate: (v): v is boolean => typeof v === 'boolean',
  allowList: isStringArray,
  denyList: isStringArray,
  allowListOnly: (v): v is boolean => typeof v === 'boolean',
  legacyIndex: (v): v is boolean => typeof v === 'boolean',
  shortHeader: (v): v is boolean => typeof v === 'boolean',
  reviewers: isReviewerRegistry,
  snapshotKeys: (v): v is SnapshotKeyConfig[] => Array.isArray(v) && v.every(isSnapshotKey),
  chatSites: isChatSiteList,
  desktopMirror: (v): v is boolean => typeof v === 'boolean',
  desktopAgents: isAgentList,
  desktopConfirmed: (v): v is DesktopConfirmation[] => Array.isArray(v) && v.length <= MAX_DESKTOP_CONFIRMATIONS && v.every(isConfirmation),
};

const FIELDS = Object.keys(CHECKS) as (keyof Settings)[];

/** A fresh copy of the defaults (callers may mutate what they get). */
export function defaultSettings(): Settings {
  return structuredClone(DEFAULT_SETTINGS);
}

/** Fields whose stored form changed: read the older form as the newer one. */
const MIGRATE: Partial<Record<keyof Settings, (v: unknown) => unknown>> = { desktopAgents: migrateAgentList };

function copyField<K extends keyof Settings>(target: Settings, source: Record<string, unknown>, field: K): boolean {
  const migrate = MIGRATE[field];
  const value = migrate ? migrate(source[field]) : source[field];
  if (value === undefined) return true;
  const check = CHECKS[field];
  if (!check(value)) return false;
  target[field] = structuredClone(value);
  return true;
}

export interface SettingsRead {
  settings: Settings;
  /** Fields (or 'record') that were present but unusable. */
  invalid: string[];
}

export function readSettings(stored: unknown): SettingsRead {
  const settings = defaultSettings();
  if (stored === undefined) return { settings, invalid: [] };
  if (!isObject(stored)) return { settings, invalid: ['record'] };
  const invalid = FIELDS.filter((field) => !copyField(settings, stored, field));
  return { settings, invalid };
}

/** True when every field of Settings is present with the right type. */
export function isCompleteSettings(v: unknown): v is Settings {
  return isObject(v) && FIELDS.every((field) => CHECKS[field](v[field]));
}

/** Only the known fields, deep-copied: what putSettings stores. */
export function pickSettings(settings: Settings): Settings {
  const out = defaultSettings();
  for (const field of FIELDS) copyField(out, settings as unknown as Record<string, unknown>, field);
  return out;
}

/** Fields added after settings-set was defined: a sender that predates them leaves them out. */
export const LATER_FIELDS = ['chatSites', 'desktopMirror', 'desktopAgents', 'desktopConfirmed', 'shortHeader'] as const satisfies readonly (keyof Settings)[];
type LaterField = (typeof LATER_FIELDS)[number];

/**
 * The `settings` of a settings-set message: complete settings, except that the LATER_FIELDS may be
 * absent (a sender that predates them; the background then keeps the stored values).
 */
export function isSettingsMessage(v: unknown): v is Omit<Settings, LaterField> & Partial<Pick<Settings, LaterField>> {
  return isObject(v) && FIELDS.every((field) => ((LATER_FIELDS as readonly string[]).includes(field) && v[field] === undefined) || CHECKS[field](v[field]));
}

/**
 * True when `v` names only known Settings fields, each with a value of the right type: the
 * fields one Save changed (an empty object changes nothing).
 */
export function isSettingsChanges(v: unknown): v is Partial<Settings> {
  if (!isObject(v)) return false;
  return Object.entries(v).every(([field, value]) => Object.hasOwn(CHECKS, field) && CHECKS[field as keyof Settings](value));
}

/**
 * The settings after a Save that changed `changes`, applied over the latest stored settings:
 * a field the user did not touch keeps whatever another page stored meanwhile.
 * Unknown or ill-typed fields in `changes` are ignored; neither argument is modified.
 */
export function mergeSettings(latest: Settings, changes: Partial<Settings>): Settings {
  const out = pickSettings(latest);
  for (const field of FIELDS) copyField(out, changes as Record<string, unknown>, field);
  return out;
}
