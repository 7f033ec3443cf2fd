import { useEffect, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { fromForm, toForm, type FormErrors, type SettingsForm } from './settings-form';

type State = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; form: SettingsForm; saved: SettingsForm };

const CHECKS: { field: 'paused' | 'probeInPrivate' | 'allowListOnly' | 'legacyIndex'; label: MessageKey; help: MessageKey }[] = [
  { field: 'paused', label: 'set_paused', help: 'set_paused_help' },
  { field: 'probeInPrivate', label: 'set_private', help: 'set_private_help' },
  { field: 'allowListOnly', label: 'set_allow_only', help: 'set_allow_only_help' },
  { field: 'legacyIndex', label: 'set_legacy', help: 'set_legacy_help' },
];

const TEXTS: { field: 'allowList' | 'denyList' | 'chatSites' | 'reviewers' | 'snapshotKeys'; label: MessageKey; help: MessageKey; rows: number }[] = [
  { field: 'allowList', label: 'set_allow_list', help: 'set_list_help', rows: 3 },
  { field: 'denyList', label: 'set_deny_list', help: 'set_list_help', rows: 3 },
  { field: 'chatSites', label: 'set_chat_sites', help: 'set_chat_sites_help', rows: 3 },
  { field: 'reviewers', label: 'set_reviewers', help: 'set_reviewers_help', rows: 4 },
  { field: 'snapshotKeys', label: 'set_snapshot_keys', help: 'set_snapshot_keys_help', rows: 4 },
];

export function SettingsSection({ env }: { env: OptionsEnv }) {
  const announce = useAnnounce();
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    env.client
      .settingsGet()
      .then((s) => {
        const form = toForm(s);
        setState({ phase: 'ready', form, saved: form });
      })
      .catch((err: unknown) => setState({ phase: 'error', message: errorText(err) }));
  }, [env]);

  if (state.phase === 'loading') return <p class="loading" aria-busy="true">{t('loading')}</p>;
  if (state.phase === 'error') return <p class="error" role="alert">{t('settings_error', state.message)}</p>;
  const { form } = state;
  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) =>
    setState({ ...state, form: { ...form, [field]: value } });

  async function save(e: Event) {
    e.preventDefault();
    const parsed = fromForm(form);
    if (parsed.errors) {
      setErrors(parsed.errors);
      announce(t('settings_invalid'), 'error');
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = await env.client.settingsSet(parsed.settings);
      if (res.ok) {
        const normal = toForm(parsed.settings);
        setState({ phase: 'ready', form: normal, saved: normal });
        announce(t('settings_saved'), 'success');
      } else announce(t('settings_save_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('settings_save_failed', errorText(err)), 'error');
    } finally {
      setSaving(false);
    }
  }

  const dirty = JSON.stringify(form) !== JSON.stringify(state.saved);
  return (
    <form class="settings" onSubmit={(e) => void save(e)} noValidate>
      {CHECKS.map((c) => (
        <div class="field check" key={c.field}>
          <input
            type="checkbox"
            id={`set-${c.field}`}
            name={c.field}
            checked={form[c.field]}
            aria-describedby={`set-${c.field}-help`}
            onChange={(e) => set(c.field, e.currentTarget.checked)}
          />
          <label for={`set-${c.field}`}>{t(c.label)}</label>
          <p class="hint" id={`set-${c.field}-help`}>
            {t(c.help)}
          </p>
        </div>
      ))}
      {TEXTS.map((f) => (
        <div class="field" key={f.field}>
          <label for={`set-${f.field}`}>{t(f.label)}</label>
          <p class="hint" id={`set-${f.field}-help`}>
            {t(f.help)}
          </p>
          <textarea
            id={`set-${f.field}`}
            name={f.field}
            rows={f.rows}
            spellcheck={false}
            value={form[f.field]}
            aria-invalid={errors[f.field] ? 'true' : undefined}
            aria-describedby={`set-${f.field}-help${errors[f.field] ? ` set-${f.field}-err` : ''}`}
            onInput={(e) => set(f.field, e.currentTarget.value)}
          />
          {errors[f.field] && (
            <p class="field-error" id={`set-${f.field}-err`}>
              {errors[f.field]}
            </p>
          )}
        </div>
      ))}
      <div class="actions">
        <button type="submit" class="btn-primary" disabled={saving} data-action="save-settings">
          {t('save')}
        </button>
        <button
          type="button"
          disabled={!dirty || saving}
          onClick={() => {
            setErrors({});
            setState({ ...state, form: state.saved });
          }}
        >
          {t('revert')}
        </button>
      </div>
    </form>
  );
}
