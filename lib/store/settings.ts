// Settings are one record, and SHAPE below is the one definition of its shape: the store's
// reads, the import file and the settings messages (lib/messages/) all check with it.
// Reading merges what is stored over DEFAULT_SETTINGS field by field: a missing field takes
// its default, an unknown field is ignored, a field of the wrong type takes its default and
// is reported. Reading settings never fails.
import { DEFAULT_SETTINGS } from '../types';
import type { AgentId, Settings } from '../types';
import { MAX_CHAT_SITES } from '../chat/sites';
import { DESKTOP_AGENTS, type DesktopAgentId, isDesktopAgentId, migrateAgentList } from '../desktop/protocol/agents';
import { isAgentId } from '../desktop/protocol/limits';
import { isHttpOrigin } from '../origin';
import { HEX64, lazy, parseInput, text, z } from '../input';
import { isObject } from './validate';

/** An origin or `*.host` pattern is far shorter; the bound keeps one entry from filling the store. */
const MAX_ENTRY_CHARS = 8192;

/** Far more than anyone confirms; the bound keeps the record small. */
export const MAX_DESKTOP_CONFIRMATIONS = 4096;

/**
 * One schema per field of Settings: a field with none, or one of no field, does not compile. Built
 * the first time settings are read (lib/input.ts `lazy`).
 */
const SHAPE = lazy(() => {
  const entry = text(MAX_ENTRY_CHARS);
  const bool = z.boolean();

  return {
    paused: bool,
    probeInPrivate: bool,
    allowList: z.array(entry),
    denyList: z.array(entry),
    allowListOnly: bool,
    legacyIndex: bool,
    shortHeader: bool,
    reviewers: z.record(z.string(), z.looseObject({ public_key: z.string(), registered_at: z.string() })),
    snapshotKeys: z.array(
      z.looseObject({
        origin: z.string(),
        skillId: z.string(),
        publicKey: z.string(),
        signature: z.string(),
        keyId: z.optional(z.string()),
        revisionPin: z.optional(z.string()),
        versionPin: z.optional(z.string()),
      }),
    ),
    chatSites: z.array(z.custom<string>(isHttpOrigin)).check(z.maxLength(MAX_CHAT_SITES)),
    desktopMirror: bool,
    desktopAgents: z.array(z.custom<DesktopAgentId>(isDesktopAgentId)).check(
      z.maxLength(DESKTOP_AGENTS.length),
      z.refine<DesktopAgentId[]>((v) => new Set(v).size === v.length),
    ),
    desktopConfirmed: z
      .array(
        z.strictObject({
          origin: entry.check(z.refine<string>(isHttpOrigin)),
          url: entry.check(z.minLength(1)),
          agent: z.custom<AgentId>(isAgentId),
          revision: z.string().check(z.regex(HEX64)),
        }),
      )
      .check(z.maxLength(MAX_DESKTOP_CONFIRMATIONS)),
  } satisfies { [K in keyof Settings]: z.ZodMiniType<Settings[K]> };
});

/** The fields of Settings, in SHAPE's order. */
const fields = lazy(() => Object.keys(SHAPE()) as (keyof Settings)[]);

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
  const parsed = parseInput(SHAPE()[field], value);
  if (parsed.ok) target[field] = structuredClone(parsed.value) as Settings[K];
  return parsed.ok;
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
  const invalid = fields().filter((field) => !copyField(settings, stored, field));
  return { settings, invalid };
}

const SETTINGS = lazy(() => z.object(SHAPE()));

/** True when every field of Settings is present with the right type. */
export function isCompleteSettings(v: unknown): v is Settings {
  return parseInput(SETTINGS(), v).ok;
}

/** Only the known fields, deep-copied: what putSettings stores. */
export function pickSettings(settings: Settings): Settings {
  const out = defaultSettings();
  for (const field of fields()) copyField(out, settings as unknown as Record<string, unknown>, field);
  return out;
}

/**
 * The `settings` of a settings-set message: complete settings, except that the fields added after
 * settings-set was defined may be absent (a sender that predates them; the background then keeps
 * the stored values).
 */
export const settingsMessage = lazy(() => z.partial(SETTINGS(), { chatSites: true, desktopMirror: true, desktopAgents: true, desktopConfirmed: true, shortHeader: true }));

/** Known Settings fields only, each with a value of the right type: the fields one Save changed (an empty object changes nothing). */
export const settingsChanges = lazy(() => z.exactPartial(z.strictObject(SHAPE())));

/**
 * The settings after a Save that changed `changes`, applied over the latest stored settings:
 * a field the user did not touch keeps whatever another page stored meanwhile.
 * Unknown or ill-typed fields in `changes` are ignored; neither argument is modified.
 */
export function mergeSettings(latest: Settings, changes: Partial<Settings>): Settings {
  const out = pickSettings(latest);
  for (const field of fields()) copyField(out, changes as Record<string, unknown>, field);
  return out;
}
