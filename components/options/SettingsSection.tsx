import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import type { PolicySummary } from '../../lib/messages';
import { useAnnounce } from '../shared/Announcer';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { fromForm, sameForm, settingsChanges, toForm, type FormErrors, type SettingsForm } from './settings-form';

/**
 * `saved`: the settings as loaded, the baseline that tells which fields the user changed.
 * `newer`: settings stored elsewhere (another options tab) after the form was edited; the
 * form keeps the user's edits and offers to load them instead.
 */
type Ready = { phase: 'ready'; form: SettingsForm; saved: SettingsForm; newer: SettingsForm | null };
type State = { phase: 'loading' } | { phase: 'error'; message: string } | Ready;

/** The form after learning the stored settings are `latest`: an untouched form shows them, an edited one keeps its edits. */
function follow(prev: State, latest: SettingsForm): State {
  if (prev.phase !== 'ready') return { phase: 'ready', form: latest, saved: latest, newer: null };
  if (sameForm(latest, prev.saved)) return prev.newer ? { ...prev, newer: null } : prev;
  if (sameForm(prev.form, prev.saved)) return { phase: 'ready', form: latest, saved: latest, newer: null };
  return { ...prev, newer: latest };
}

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

/** What the organisation set (docs/policies.md); shown above the form when any policy applies. */
function PolicyPanel({ policy }: { policy: PolicySummary }) {
  return (
    <div class="result policy" role="note" data-testid="policy-panel">
      <h3>{t('policy_title')}</h3>
      <p>{t('policy_intro')}</p>
      {policy.requireSigned && <p data-testid="policy-require-signed">{t('policy_require_signed')}</p>}
      {policy.pinnedKeys.length > 0 && (
        <>
          <p>{t('policy_pinned_keys')}</p>
          <ul data-testid="policy-pinned-keys">
            {policy.pinnedKeys.map((k) => (
              <li key={k.origin} data-origin={k.origin}>
                {k.origin} <Fingerprint value={k.fingerprint} label={k.origin} />
              </li>
            ))}
          </ul>
        </>
      )}
      {policy.invalid.length > 0 && (
        <p class="field-error" data-testid="policy-invalid">
          {t('policy_invalid', policy.invalid.join('; '))}
        </p>
      )}
    </div>
  );
}

function ManagedNote({ field }: { field: string }) {
  return (
    <p class="hint managed" id={`set-${field}-managed`} data-testid={`managed-${field}`}>
      {t('policy_managed')}
    </p>
  );
}

/** The policy, or null when the background cannot say (the form then locks nothing; Save is still checked there). */
async function loadPolicy(env: OptionsEnv): Promise<PolicySummary | null> {
  try {
    return await env.client.policyGet();
  } catch {
    return null;
  }
}

/** `version` grows when settings changed anywhere (Options.tsx, env.watchChanges). */
export function SettingsSection({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const announce = useAnnounce();
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const [policy, setPolicy] = useState<PolicySummary | null>(null);
  // A change heard while our own Save is on its way is looked at once the Save has answered,
  // so the page's own write is never mistaken for one made elsewhere.
  const savingRef = useRef(false);
  const missed = useRef(false);

  useEffect(() => {
    void loadPolicy(env).then(setPolicy);
    env.client
      .settingsGet()
      .then((s) => {
        const form = toForm(s);
        setState({ phase: 'ready', form, saved: form, newer: null });
      })
      .catch((err: unknown) => setState({ phase: 'error', message: errorText(err) }));
  }, [env]);

  const recheck = useCallback(() => {
    if (savingRef.current) {
      missed.current = true;
      return;
    }
    // A policy change is announced as a settings change (lib/background/service.ts onManagedChanged).
    void loadPolicy(env).then(setPolicy);
    env.client
      .settingsGet()
      .then((s) => setState((prev) => (savingRef.current ? prev : follow(prev, toForm(s)))))
      // The form stays as it is; the next change or a reload tries again.
      .catch(() => undefined);
  }, [env]);

  useEffect(() => {
    if (version > 0) recheck();
  }, [version, recheck]);

  if (state.phase === 'loading') return <p class="loading" aria-busy="true">{t('loading')}</p>;
  if (state.phase === 'error') return <p class="error" role="alert">{t('settings_error', state.message)}</p>;
  const { form } = state;
  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) =>
    setState((prev) => (prev.phase === 'ready' ? { ...prev, form: { ...prev.form, [field]: value } } : prev));

  async function save(e: Event) {
    e.preventDefault();
    if (state.phase !== 'ready') return;
    const parsed = fromForm(form);
    if (parsed.errors) {
      setErrors(parsed.errors);
      announce(t('settings_invalid'), 'error');
      return;
    }
    setErrors({});
    setSaving(true);
    savingRef.current = true;
    try {
      // Only what the user changed goes out; the background merges it over what is stored now.
      const res = await env.client.settingsUpdate(settingsChanges(form, state.saved, parsed.settings));
      if (res.ok && res.settings) {
        const stored = toForm(res.settings);
        setState({ phase: 'ready', form: stored, saved: stored, newer: null });
        announce(t('settings_saved'), 'success');
      } else announce(t('settings_save_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('settings_save_failed', errorText(err)), 'error');
    } finally {
      savingRef.current = false;
      setSaving(false);
      if (missed.current) {
        missed.current = false;
        recheck();
      }
    }
  }

  function reload() {
    if (state.phase !== 'ready' || !state.newer) return;
    setErrors({});
    setState({ phase: 'ready', form: state.newer, saved: state.newer, newer: null });
    announce(t('settings_reloaded'), 'success');
  }

  const dirty = JSON.stringify(form) !== JSON.stringify(state.saved);
  const managed = (field: string): boolean => policy?.managedFields.includes(field as PolicySummary['managedFields'][number]) === true;
  const describedBy = (field: string, extra = ''): string => `set-${field}-help${managed(field) ? ` set-${field}-managed` : ''}${extra}`;
  return (
    <form class="settings" onSubmit={(e) => void save(e)} noValidate>
      {policy?.active && <PolicyPanel policy={policy} />}
      {state.newer && (
        <div class="result result-warn changed-elsewhere" role="status" data-testid="settings-changed">
          <p>{t('settings_changed_elsewhere')}</p>
          <div class="actions">
            <button type="button" data-action="reload-settings" onClick={reload}>
              {t('settings_reload')}
            </button>
          </div>
        </div>
      )}
      {CHECKS.map((c) => (
        <div class="field check" key={c.field}>
          <input
            type="checkbox"
            id={`set-${c.field}`}
            name={c.field}
            checked={form[c.field]}
            disabled={managed(c.field)}
            aria-describedby={describedBy(c.field)}
            onChange={(e) => set(c.field, e.currentTarget.checked)}
          />
          <label for={`set-${c.field}`}>{t(c.label)}</label>
          <p class="hint" id={`set-${c.field}-help`}>
            {t(c.help)}
          </p>
          {managed(c.field) && <ManagedNote field={c.field} />}
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
            readOnly={managed(f.field)}
            aria-readonly={managed(f.field) ? 'true' : undefined}
            aria-invalid={errors[f.field] ? 'true' : undefined}
            aria-describedby={describedBy(f.field, errors[f.field] ? ` set-${f.field}-err` : '')}
            onInput={(e) => set(f.field, e.currentTarget.value)}
          />
          {managed(f.field) && <ManagedNote field={f.field} />}
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
            // Back to what is stored: the newer settings when another page changed them.
            const stored = state.newer ?? state.saved;
            setErrors({});
            setState({ phase: 'ready', form: stored, saved: stored, newer: null });
          }}
        >
          {t('revert')}
        </button>
      </div>
    </form>
  );
}
