// The settings form's fields: a checkbox or a text box each, with its help, the policy's note
// when the field is managed (then locked), and its error after a refused Save.
import { t, type MessageKey } from '../../lib/i18n';
import { tn, type PluralBase } from '../../lib/i18n/plural';
import { ManagedNote } from './PolicyPanel';
import type { CheckName, SettingsForm, TextName } from './settings-form';

export const CHECKS: { field: CheckName; label: MessageKey; help: MessageKey }[] = [
  { field: 'paused', label: 'set_paused', help: 'set_paused_help' },
  { field: 'probeInPrivate', label: 'set_private', help: 'set_private_help' },
  { field: 'allowListOnly', label: 'set_allow_only', help: 'set_allow_only_help' },
  { field: 'legacyIndex', label: 'set_legacy', help: 'set_legacy_help' },
  { field: 'shortHeader', label: 'set_short_header', help: 'set_short_header_help' },
];

export const TEXTS: { field: TextName; label: MessageKey; help: MessageKey; rows: number }[] = [
  { field: 'allowList', label: 'set_allow_list', help: 'set_list_help', rows: 3 },
  { field: 'denyList', label: 'set_deny_list', help: 'set_list_help', rows: 3 },
  { field: 'chatSites', label: 'set_chat_sites', help: 'set_chat_sites_help', rows: 3 },
];

/** The settings written as JSON: a summary in words, the JSON one click away, and its format. */
export const JSON_TEXTS: { field: 'reviewers' | 'snapshotKeys'; label: MessageKey; help: MessageKey; format: MessageKey; count: (value: unknown) => number | null; rows: number }[] = [
  {
    field: 'reviewers',
    label: 'set_reviewers',
    help: 'set_reviewers_help',
    format: 'set_reviewers_format',
    count: (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v).length : null),
    rows: 4,
  },
  { field: 'snapshotKeys', label: 'set_snapshot_keys', help: 'set_snapshot_keys_help', format: 'set_snapshot_keys_format', count: (v) => (Array.isArray(v) ? v.length : null), rows: 4 },
];

function parsedCount(text: string, count: (value: unknown) => number | null): number | null {
  if (text.trim() === '') return 0;
  try {
    return count(JSON.parse(text));
  } catch {
    return null;
  }
}

const SUMMARY: Record<(typeof JSON_TEXTS)[number]['field'], PluralBase> = { reviewers: 'set_reviewers_count', snapshotKeys: 'set_snapshot_keys_count' };

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
export function JsonField({ spec, ...box }: BoxProps & { spec: (typeof JSON_TEXTS)[number] }) {
  const { field } = spec;
  const { form, managed, error } = box;
  const n = parsedCount(form[field], spec.count);
  return (
    <div class="field json-field">
      <p class="field-label" id={`set-${field}-label`}>
        {t(spec.label)}
      </p>
      <p class="hint" id={`set-${field}-help`}>
        {t(spec.help)}
      </p>
      <p data-testid={`${field}-summary`}>{n === null ? t('set_json_unreadable') : tn(SUMMARY[field], n)}</p>
      {managed && <ManagedNote field={field} />}
      <details open={error !== undefined}>
        <summary>{t('set_edit_json')}</summary>
        <label for={`set-${field}`} class="hint">
          {t(spec.format)}
        </label>
        <FieldBox field={field} rows={spec.rows} {...box} />
      </details>
      <FieldError field={field} error={error} />
    </div>
  );
}

/** A field's label, by its name (the unsaved bar names the fields it holds). */
export function fieldLabel(field: keyof SettingsForm): string {
  const spec = [...CHECKS, ...TEXTS, ...JSON_TEXTS].find((s) => s.field === field);
  return spec ? t(spec.label) : field;
}

/** The ids a field's aria-describedby names: its help, the managed note when there is one, then `extra`. */
const describedBy = (field: string, managed: boolean, extra = ''): string => `set-${field}-help${managed ? ` set-${field}-managed` : ''}${extra}`;

/** `set` applies the tick at once (use-settings.ts apply). */
export function CheckField({ spec, form, managed, set }: { spec: (typeof CHECKS)[number]; form: SettingsForm; managed: boolean; set: (field: CheckName, value: boolean) => void }) {
  const { field } = spec;
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
      <label for={`set-${field}`}>{t(spec.label)}</label>
      <p class="hint" id={`set-${field}-help`}>
        {t(spec.help)}
      </p>
      {managed && <ManagedNote field={field} />}
    </div>
  );
}

export function TextField({ spec, ...box }: BoxProps & { spec: (typeof TEXTS)[number] }) {
  const { field } = spec;
  return (
    <div class="field">
      <label for={`set-${field}`}>{t(spec.label)}</label>
      <p class="hint" id={`set-${field}-help`}>
        {t(spec.help)}
      </p>
      <FieldBox field={field} rows={spec.rows} {...box} />
      {box.managed && <ManagedNote field={field} />}
      <FieldError field={field} error={box.error} />
    </div>
  );
}
