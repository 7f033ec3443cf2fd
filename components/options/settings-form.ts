// Converting between Settings and the editable form, with validation that names
// the offending line or field. Pure functions, tested on their own.
import type { ReviewerRegistry, Settings, SnapshotKeyConfig } from '../../lib/types';
import { t } from '../../lib/i18n';
import { MAX_CHAT_SITES } from '../../lib/chat/sites';
import { originOfEntry } from '../../lib/origin';

/** The form's ticks: the settings' own booleans. */
export const CHECK_FIELDS = ['paused', 'probeInPrivate', 'allowListOnly', 'legacyIndex', 'shortHeader'] as const;
/** The form's text boxes: a list one entry a line, or JSON. */
const TEXT_FIELDS = ['allowList', 'denyList', 'reviewers', 'snapshotKeys', 'chatSites'] as const;
export const FORM_FIELDS = [...CHECK_FIELDS, ...TEXT_FIELDS];

export type CheckName = (typeof CHECK_FIELDS)[number];
export type TextName = (typeof TEXT_FIELDS)[number];
export type SettingsForm = Pick<Settings, CheckName> & Record<TextName, string>;

export type FormErrors = Partial<Record<keyof SettingsForm, string>>;

/** The settings this form edits (the desktop agents have a section of their own, DesktopSection). */
export type FormSettings = Pick<Settings, keyof SettingsForm>;

const HOST_PATTERN = /^\*\.(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** One allow/deny list line: an http(s) origin (a path is dropped) or a `*.host` pattern. */
export function parseSiteEntry(line: string): string | null {
  const v = line.trim();
  if (HOST_PATTERN.test(v)) return v.toLowerCase();
  return originOfEntry(v);
}

/** A text box read back: the setting it holds, or the error that names the offending line or entry. */
type Parsed<V> = { value: V; error: string | null };

/** The entries of a list box, one a line, each once; the first line `parse` refuses is the error (`errKey`, with its number and text). */
function parseLines(text: string, parse: (line: string) => string | null, errKey: 'err_site_line' | 'err_chat_site_line'): Parsed<string[]> {
  const list: string[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    const entry = parse(line);
    if (entry === null) return { value: list, error: t(errKey, i + 1, line.trim()) };
    if (!list.includes(entry)) list.push(entry);
  }
  return { value: list, error: null };
}

const parseSiteList = (text: string) => parseLines(text, parseSiteEntry, 'err_site_line');

/**
 * One "Other chat sites" line: an http(s) origin (a trailing path is dropped), never a pattern.
 * An http(s) URL always has a host (the URL parser refuses an empty one for these schemes).
 */
export const parseChatSiteEntry: (line: string) => string | null = originOfEntry;

function parseChatSites(text: string): Parsed<string[]> {
  const { value, error } = parseLines(text, parseChatSiteEntry, 'err_chat_site_line');
  if (!error && value.length > MAX_CHAT_SITES) return { value, error: t('err_chat_sites_count', MAX_CHAT_SITES) };
  return { value, error };
}

/** A JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(text: string): Parsed<unknown> {
  if (!text.trim()) return { value: undefined, error: null };
  try {
    return { value: JSON.parse(text) as unknown, error: null };
  } catch (err) {
    return { value: undefined, error: t('err_json', err instanceof Error ? err.message : String(err)) };
  }
}

function parseReviewers(text: string): Parsed<ReviewerRegistry> {
  const { value, error } = parseJson(text);
  if (error || value === undefined) return { value: {}, error };
  if (!isRecord(value)) return { value: {}, error: t('err_reviewers_shape') };
  const out: ReviewerRegistry = {};
  for (const [attester, entry] of Object.entries(value)) {
    if (!isRecord(entry) || typeof entry.public_key !== 'string' || typeof entry.registered_at !== 'string') {
      return { value: {}, error: t('err_reviewer_entry', attester) };
    }
    out[attester] = { public_key: entry.public_key, registered_at: entry.registered_at };
  }
  return { value: out, error: null };
}

const SNAPSHOT_REQUIRED = ['origin', 'skillId', 'publicKey', 'signature'] as const;
const SNAPSHOT_OPTIONAL = ['keyId', 'revisionPin', 'versionPin'] as const;

function parseSnapshotKeys(text: string): Parsed<SnapshotKeyConfig[]> {
  const { value, error } = parseJson(text);
  if (error || value === undefined) return { value: [], error };
  if (!Array.isArray(value)) return { value: [], error: t('err_snapshot_shape') };
  const out: SnapshotKeyConfig[] = [];
  for (const [i, item] of (value as unknown[]).entries()) {
    if (!isRecord(item)) return { value: [], error: t('err_snapshot_entry', i + 1, 'object') };
    for (const f of SNAPSHOT_REQUIRED) {
      if (typeof item[f] !== 'string' || !item[f]) return { value: [], error: t('err_snapshot_entry', i + 1, f) };
    }
    for (const f of SNAPSHOT_OPTIONAL) {
      if (item[f] !== undefined && typeof item[f] !== 'string') return { value: [], error: t('err_snapshot_entry', i + 1, f) };
    }
    // The required fields (all present, checked above), then the optional ones given.
    const given = [...SNAPSHOT_REQUIRED, ...SNAPSHOT_OPTIONAL].filter((f) => typeof item[f] === 'string');
    const entry: Partial<SnapshotKeyConfig> = Object.fromEntries(given.map((f) => [f, item[f] as string]));
    out.push(entry as SnapshotKeyConfig);
  }
  return { value: out, error: null };
}

const writeLines = (list: readonly string[]): string => list.join('\n');
const writeJson = (value: unknown): string => JSON.stringify(value, null, 2);

/** How each text box holds its setting: written out for the box, and read back from what the box says. */
const TEXTS: { [K in TextName]: { write: (value: Settings[K]) => string; read: (text: string) => Parsed<Settings[K]> } } = {
  allowList: { write: writeLines, read: parseSiteList },
  denyList: { write: writeLines, read: parseSiteList },
  reviewers: { write: writeJson, read: parseReviewers },
  snapshotKeys: { write: writeJson, read: parseSnapshotKeys },
  chatSites: { write: writeLines, read: parseChatSites },
};

/** One text box's text (a function of its own, so that the setting's type follows the field's). */
const writeText = <K extends TextName>(s: Settings, field: K): string => TEXTS[field].write(s[field]);

/** The form showing `s`: the ticks as they are, each text box its setting written out. */
export function toForm(s: Settings): SettingsForm {
  const form: Partial<Record<keyof SettingsForm, unknown>> = {};
  for (const f of CHECK_FIELDS) form[f] = s[f];
  for (const f of TEXT_FIELDS) form[f] = writeText(s, f);
  return form as SettingsForm;
}

/** The Settings a form describes, or the errors that stop it from being saved. */
export function fromForm(form: SettingsForm): { settings: FormSettings; errors: null } | { settings: null; errors: FormErrors } {
  const settings: Partial<Record<keyof SettingsForm, unknown>> = { ...form };
  const errors: FormErrors = {};
  for (const f of TEXT_FIELDS) {
    const { value, error } = TEXTS[f].read(form[f]);
    if (error) errors[f] = error;
    else settings[f] = value;
  }
  if (Object.keys(errors).length > 0) return { settings: null, errors };
  return { settings: settings as FormSettings, errors: null };
}

/** The fields whose text or box differs from the form as loaded (`saved`): the edits leaving the page now would lose. */
export function changedFields(form: SettingsForm, saved: SettingsForm): (keyof SettingsForm)[] {
  return FORM_FIELDS.filter((f) => form[f] !== saved[f]);
}

/**
 * What a Save sends: the parsed value of each field the user changed, and nothing else. A
 * field left as loaded is not sent even if parsing would normalise it, so it can never
 * overwrite a newer value stored from elsewhere (the background merges, lib/messages/).
 */
export function settingsChanges(form: SettingsForm, saved: SettingsForm, parsed: FormSettings): Partial<Settings> {
  return Object.fromEntries(changedFields(form, saved).map((f) => [f, parsed[f]])) as Partial<Settings>;
}

/** True when both forms show the same values. */
export function sameForm(a: SettingsForm, b: SettingsForm): boolean {
  return changedFields(a, b).length === 0;
}

/**
 * The change one field makes on its own, as the page applies it when the field changes (a tick or a list applies at once, nothing waits for a Save far below): the field's
 * parsed value, or its error. The other fields are taken as loaded, so an edit still being typed
 * elsewhere neither blocks this one nor goes out with it.
 */
export function fieldChange(form: SettingsForm, saved: SettingsForm, field: keyof SettingsForm): { changes: Partial<Settings>; error: null } | { changes: null; error: string } {
  if (form[field] === saved[field]) return { changes: {}, error: null };
  const alone = { ...saved, [field]: form[field] };
  const parsed = fromForm(alone);
  if (parsed.errors) return { changes: null, error: parsed.errors[field] ?? t('settings_invalid') };
  return { changes: settingsChanges(alone, saved, parsed.settings), error: null };
}

/**
 * The form once a save of the fields `sent` answered with the settings now stored: what is stored,
 * except the fields the user edited and did not send, which keep the edit.
 */
export function afterSave(form: SettingsForm, saved: SettingsForm, stored: SettingsForm, sent: readonly (keyof SettingsForm)[]): SettingsForm {
  const out: SettingsForm = { ...stored };
  for (const f of changedFields(form, saved)) if (!sent.includes(f)) (out as unknown as Record<string, unknown>)[f] = form[f];
  return out;
}
