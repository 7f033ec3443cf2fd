// The settings form's state: the settings as loaded (the baseline that tells which fields the
// user changed), the form as edited, settings stored elsewhere meanwhile, the policy, and Save.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { PolicySummary } from '../../lib/messages';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { fromForm, sameForm, settingsChanges, toForm, type FormErrors, type SettingsForm } from './settings-form';

/**
 * `saved`: the settings as loaded, the baseline that tells which fields the user changed.
 * `newer`: settings stored elsewhere (another options tab) after the form was edited; the
 * form keeps the user's edits and offers to load them instead.
 */
type Ready = { phase: 'ready'; form: SettingsForm; saved: SettingsForm; newer: SettingsForm | null };
export type SettingsState = { phase: 'loading' } | { phase: 'error'; message: string } | Ready;

/** The form after learning the stored settings are `latest`: an untouched form shows them, an edited one keeps its edits. */
function follow(prev: SettingsState, latest: SettingsForm): SettingsState {
  if (prev.phase !== 'ready') return { phase: 'ready', form: latest, saved: latest, newer: null };
  if (sameForm(latest, prev.saved)) return prev.newer ? { ...prev, newer: null } : prev;
  if (sameForm(prev.form, prev.saved)) return { phase: 'ready', form: latest, saved: latest, newer: null };
  return { ...prev, newer: latest };
}

const showing = (form: SettingsForm): Ready => ({ phase: 'ready', form, saved: form, newer: null });

/** The policy, or null when the background cannot say (the form then locks nothing; Save is still checked there). */
async function loadPolicy(env: OptionsEnv): Promise<PolicySummary | null> {
  try {
    return await env.client.policyGet();
  } catch {
    return null;
  }
}

export interface SettingsModel {
  state: SettingsState;
  errors: FormErrors;
  saving: boolean;
  policy: PolicySummary | null;
  set<K extends keyof SettingsForm>(field: K, value: SettingsForm[K]): void;
  /** Checks the form and sends only the fields the user changed. */
  save(): Promise<void>;
  /** Drops the edits for the settings stored elsewhere. */
  loadNewer(): void;
  /** Back to what is stored: the newer settings when another page changed them. */
  revert(): void;
}

/** `version` grows when settings changed anywhere (Options.tsx, env.watchChanges). */
export function useSettings(env: OptionsEnv, version: number): SettingsModel {
  const announce = useAnnounce();
  const [state, setState] = useState<SettingsState>({ phase: 'loading' });
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
      .then((s) => setState(showing(toForm(s))))
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

  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) => setState((prev) => (prev.phase === 'ready' ? { ...prev, form: { ...prev.form, [field]: value } } : prev));

  async function save() {
    if (state.phase !== 'ready') return;
    const { form } = state;
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
        setState(showing(toForm(res.settings)));
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

  function loadNewer() {
    if (state.phase !== 'ready' || !state.newer) return;
    setErrors({});
    setState(showing(state.newer));
    announce(t('settings_reloaded'), 'success');
  }

  function revert() {
    if (state.phase !== 'ready') return;
    setErrors({});
    setState(showing(state.newer ?? state.saved));
  }

  return { state, errors, saving, policy, set, save, loadNewer, revert };
}
