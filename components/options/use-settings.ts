// The settings form's state: the settings as loaded (the baseline that tells which fields the
// user changed), the form as edited, settings stored elsewhere meanwhile, the policy. A tick applies
// at once (with Undo), a text field when it is left; Save sends what is still pending.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { PolicySummary } from '../../lib/messages';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import type { Settings } from '../../lib/types';
import { afterSave, changedFields, fieldChange, fromForm, sameForm, settingsChanges, toForm, type FormErrors, type SettingsForm } from './settings-form';

/**
 * `saved`: the settings as loaded, the baseline that tells which fields the user changed.
 * `newer`: settings stored elsewhere (another options tab) after the form was edited; the
 * form keeps the user's edits and offers to load them instead.
 */
type Ready = { phase: 'ready'; form: SettingsForm; saved: SettingsForm; newer: SettingsForm | null };
export type SettingsState = { phase: 'loading' } | { phase: 'error'; message: string } | Ready;

const showing = (form: SettingsForm): Ready => ({ phase: 'ready', form, saved: form, newer: null });

/** The form after learning the stored settings are `latest`: an untouched form shows them, an edited one keeps its edits. */
function follow(prev: SettingsState, latest: SettingsForm): SettingsState {
  if (prev.phase !== 'ready') return showing(latest);
  if (sameForm(latest, prev.saved)) return prev.newer ? { ...prev, newer: null } : prev;
  if (sameForm(prev.form, prev.saved)) return showing(latest);
  return { ...prev, newer: latest };
}

/** The policy, or null when the background cannot say (the form then locks nothing; Save is still checked there). */
const loadPolicy = (env: OptionsEnv): Promise<PolicySummary | null> => env.client.policyGet().catch(() => null);

type SaveOutcome = { ok: true } | { ok: false; message: string };

/** `version` grows when settings changed anywhere (Options.tsx, env.watchChanges). */
export function useSettings(env: OptionsEnv, version: number) {
  const announce = useAnnounce();
  const [state, setStateRaw] = useState<SettingsState>({ phase: 'loading' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const [policy, setPolicy] = useState<PolicySummary | null>(null);
  // The latest state for the requests that answer later (a tick applied while another is on its way).
  const stateRef = useRef<SettingsState>(state);
  const setState = useCallback((next: SettingsState | ((prev: SettingsState) => SettingsState)) => {
    setStateRaw((prev) => {
      const value = typeof next === 'function' ? next(prev) : next;
      stateRef.current = value;
      return value;
    });
  }, []);
  // A change heard while our own save is on its way is looked at once the save has answered,
  // so the page's own write is never mistaken for one made elsewhere.
  const inFlight = useRef(0);
  const missed = useRef(false);

  useEffect(() => {
    void loadPolicy(env).then(setPolicy);
    env.client
      .settingsGet()
      .then((s) => setState(showing(toForm(s))))
      .catch((err: unknown) => setState({ phase: 'error', message: errorText(err) }));
  }, [env, setState]);

  const recheck = useCallback(() => {
    if (inFlight.current > 0) {
      missed.current = true;
      return;
    }
    // A policy change is announced as a settings change (lib/background/service.ts onManagedChanged).
    void loadPolicy(env).then(setPolicy);
    env.client
      .settingsGet()
      .then((s) => setState((prev) => (inFlight.current > 0 ? prev : follow(prev, toForm(s)))))
      // The form stays as it is; the next change or a reload tries again.
      .catch(() => undefined);
  }, [env, setState]);

  useEffect(() => {
    if (version > 0) recheck();
  }, [version, recheck]);

  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) => setState((prev) => (prev.phase === 'ready' ? { ...prev, form: { ...prev.form, [field]: value } } : prev));

  /** Sends `changes` for the fields `sent`; the form then shows what is stored, keeping the edits not sent. */
  async function send(changes: Partial<Settings>, sent: readonly (keyof SettingsForm)[]): Promise<SaveOutcome> {
    setSaving(true);
    inFlight.current++;
    try {
      // Only what the user changed goes out; the background merges it over what is stored now.
      const res = await env.client.settingsUpdate(changes);
      if (!res.ok || !res.settings) return { ok: false, message: res.message ?? res.error ?? t('error_unknown') };
      const stored = toForm(res.settings);
      setState((prev) => (prev.phase === 'ready' ? { phase: 'ready', form: afterSave(prev.form, prev.saved, stored, sent), saved: stored, newer: null } : prev));
      return { ok: true };
    } catch (err) {
      return { ok: false, message: errorText(err) };
    } finally {
      inFlight.current--;
      if (inFlight.current === 0) {
        setSaving(false);
        if (missed.current) {
          missed.current = false;
          recheck();
        }
      }
    }
  }

  /** Puts a field back to what is stored (a change the background refused). */
  const restore = (field: keyof SettingsForm) => setState((prev) => (prev.phase === 'ready' ? { ...prev, form: { ...prev.form, [field]: prev.saved[field] } } : prev));

  /** Sets a field and applies it at once (a tick): saved alone, with an Undo in the message. */
  function apply<K extends keyof SettingsForm>(field: K, value: SettingsForm[K], label: string) {
    const now = stateRef.current;
    if (now.phase !== 'ready') return;
    const before = now.saved[field];
    const form = { ...now.form, [field]: value };
    setState({ ...now, form });
    const change = fieldChange(form, now.saved, field);
    if (change.error !== null) return setErrors((e) => ({ ...e, [field]: change.error }));
    void send(change.changes, [field]).then((out) => {
      if (!out.ok) {
        restore(field);
        announce(t('settings_save_failed', out.message), 'error');
        return;
      }
      announce(t('settings_applied', label), 'success', { action: { label: t('undo'), run: () => apply(field, before, label) } });
    });
  }

  /** Applies the edit of one text field (when the field is left): saved when it reads well, else its error is shown. */
  function commit(field: keyof SettingsForm) {
    const now = stateRef.current;
    if (now.phase !== 'ready' || now.form[field] === now.saved[field]) return;
    const change = fieldChange(now.form, now.saved, field);
    if (change.error !== null) return setErrors((e) => ({ ...e, [field]: change.error }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    void send(change.changes, [field]).then((out) => announce(out.ok ? t('settings_saved') : t('settings_save_failed', out.message), out.ok ? 'success' : 'error'));
  }

  /** Checks the form and sends every field the user changed and has not applied yet. */
  async function save() {
    const now = stateRef.current;
    if (now.phase !== 'ready') return;
    const { form } = now;
    const parsed = fromForm(form);
    if (parsed.errors) {
      setErrors(parsed.errors);
      announce(t('settings_invalid'), 'error');
      return;
    }
    setErrors({});
    const out = await send(settingsChanges(form, now.saved, parsed.settings), changedFields(form, now.saved));
    announce(out.ok ? t('settings_saved') : t('settings_save_failed', out.message), out.ok ? 'success' : 'error');
  }

  /** Back to what is stored: the newer settings when another page changed them. */
  function revert() {
    if (state.phase !== 'ready') return;
    setErrors({});
    setState(showing(state.newer ?? state.saved));
  }

  /** Drops the edits for the settings stored elsewhere. */
  function loadNewer() {
    if (state.phase !== 'ready' || !state.newer) return;
    revert();
    announce(t('settings_reloaded'), 'success');
  }

  return { state, errors, saving, policy, set, apply, commit, save, loadNewer, revert };
}
