// The settings form's fields: a checkbox or a text box each, with its help, the policy's note
// when the field is managed (then locked), and its error after a refused Save.
import { t, type MessageKey } from '../../lib/i18n';
import { tn, type PluralBase } from '../../lib/i18n/plural';
import { ManagedNote } from './PolicyPanel';
import { isRecord, type CheckName, type SettingsForm, type TextName } from './settings-form';

/** Each field's label and help. */
const WORDS: Record<keyof SettingsForm, { label: MessageKey; help: MessageKey }> = {
  paused: { label: 'set_paused', help: 'set_paused_help' },
  probeInPrivate: { label: 'set_private', help: 'set_private_help' },
  allowListOnly: { label: 'set_allow_only', help: 'set_allow_only_help' },
  legacyIndex: { label: 'set_legacy', help: 'set_legacy_help' },
  shortHeader: { label: 'set_short_header', help: 'set_short_header_help' },
  allowList: { label: 'set_allow_list', help: 'set_list_help' },
  denyList: { label: 'set_deny_list', help: 'set_list_help' },
  reviewers: { label: 'set_reviewers', help: 'set_reviewers_help' },
  snapshotKeys: { label: 'set_snapshot_keys', help: 'set_snapshot_keys_help' },
  chatSites: { label: 'set_chat_sites', help: 'set_chat_sites_help' },
};

/** The text boxes that hold a list, one entry a line, in the order the form shows them. */
export const LIST_FIELDS = ['allowList', 'denyList', 'chatSites'] as const satisfies readonly TextName[];

type JsonName = 'reviewers' | 'snapshotKeys';

/** The settings written as JSON: a summary in words (of `count` entries, null when the JSON is unreadable), the JSON one click away, and its format. */
const JSON_TEXTS: Record<JsonName, { summary: PluralBase; format: MessageKey; count: (value: unknown) => number | null }> = {
  reviewers: { summary: 'set_reviewers_count', format: 'set_reviewers_format', count: (v) => (isRecord(v) ? Object.keys(v).length : null) },
  snapshotKeys: { summary: 'set_snapshot_keys_count', format: 'set_snapshot_keys_format', count: (v) => (Array.isArray(v) ? v.length : null) },
};

/** The JSON boxes, in the order the form shows them (under "Advanced"). */
export const JSON_FIELDS = Object.keys(JSON_TEXTS) as JsonName[];

function parsedCount(text: string, count: (value: unknown) => number | null): number | null {
  if (text.trim() === '') return 0;
  try {
    return count(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The text box of a list or JSON setting: read-only while the organisation manages it, its error and help named. */
function FieldBox({ field, rows, form, managed, error, set, commit }: BoxProps & { field: TextName; rows: number }) {
  return (
    <textarea
      id={`set-${field}`}
      name={field}
      rows={rows}
      spellcheck={false}
      value={form[field]}
      readOnly={managed}
      aria-readonly={managed ? 'true' : undefined}
      aria-invalid={error ? 'true' : undefined}
      aria-describedby={describedBy(field, managed, error ? ` set-${field}-err` : '')}
      onInput={(e) => set(field, e.currentTarget.value)}
      // A list applies when the user leaves it (the change event), like a tick when it is ticked.
      onChange={() => commit(field)}
    />
  );
}

/** What a text box needs from the form: its values, whether the policy locks it, its error, and how it reports edits. */
interface BoxProps {
  form: SettingsForm;
  managed: boolean;
  error: string | undefined;
  set: (field: TextName, value: string) => void;
  commit: (field: TextName) => void;
}

function FieldError({ field, error }: { field: TextName; error: string | undefined }) {
  return error ? (
    <p class="field-error" id={`set-${field}-err`}>
      {error}
    </p>
  ) : null;
}

/** A JSON setting: what it holds in words; the text box with its format folded under "Edit as JSON". */
export function JsonField({ field, ...box }: BoxProps & { field: JsonName }) {
  const spec = JSON_TEXTS[field];
  const { form, managed, error } = box;
  const n = parsedCount(form[field], spec.count);
  return (
    <div class="field json-field">
      <p class="field-label" id={`set-${field}-label`}>
        {fieldLabel(field)}
      </p>
      <p class="hint" id={`set-${field}-help`}>
        {t(WORDS[field].help)}
      </p>
      <p data-testid={`${field}-summary`}>{n === null ? t('set_json_unreadable') : tn(spec.summary, n)}</p>
      {managed && <ManagedNote field={field} />}
      <details open={error !== undefined}>
        <summary>{t('set_edit_json')}</summary>
        <label for={`set-${field}`} class="hint">
          {t(spec.format)}
        </label>
        <FieldBox field={field} rows={4} {...box} />
      </details>
      <FieldError field={field} error={error} />
    </div>
  );
}

/** A field's label, by its name (the unsaved bar names the fields it holds). */
export const fieldLabel = (field: keyof SettingsForm): string => t(WORDS[field].label);

/** The ids a field's aria-describedby names: its help, the managed note when there is one, then `extra`. */
const describedBy = (field: string, managed: boolean, extra = ''): string => `set-${field}-help${managed ? ` set-${field}-managed` : ''}${extra}`;

/** `set` applies the tick at once (use-settings.ts apply). */
export function CheckField({ field, form, managed, set }: { field: CheckName; form: SettingsForm; managed: boolean; set: (field: CheckName, value: boolean) => void }) {
  return (
    <div class="field check">
      <input
        type="checkbox"
        id={`set-${field}`}
        name={field}
        checked={form[field]}
        disabled={managed}
        aria-describedby={describedBy(field, managed)}
        onChange={(e) => set(field, e.currentTarget.checked)}
      />
      <label for={`set-${field}`}>{fieldLabel(field)}</label>
      <p class="hint" id={`set-${field}-help`}>
        {t(WORDS[field].help)}
      </p>
      {managed && <ManagedNote field={field} />}
    </div>
  );
}

export function TextField({ field, ...box }: BoxProps & { field: TextName }) {
  return (
    <div class="field">
      <label for={`set-${field}`}>{fieldLabel(field)}</label>
      <p class="hint" id={`set-${field}-help`}>
        {t(WORDS[field].help)}
      </p>
      <FieldBox field={field} rows={3} {...box} />
      {box.managed && <ManagedNote field={field} />}
      <FieldError field={field} error={box.error} />
    </div>
  );
}
