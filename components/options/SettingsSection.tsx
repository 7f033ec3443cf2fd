// The settings form (PRODUCT.md, settings): loaded from the background; a tick applies at once
// (with Undo), a list or JSON box when the user leaves it, so no change waits for a button far
// below. An edit not applied yet (still being typed, or refused as unreadable)
// keeps a bar in view with Save, and the page asks before it is left. It follows settings changed
// elsewhere unless it holds such an edit, and is locked where the organisation's policy sets a
// field. The state and requests are in use-settings.ts.
import { Failed, Loading } from '../shared/Placeholders';
import { useEffect } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { OptionsEnv } from './env';
import { isManaged, PolicyPanel } from './PolicyPanel';
import { CheckField, fieldLabel, JSON_FIELDS, JsonField, LIST_FIELDS, TextField } from './SettingsFields';
import { CHECK_FIELDS, changedFields, type SettingsForm } from './settings-form';
import { SiteAccessPanel } from './SiteAccessPanel';
import { useSettings } from './use-settings';

function ChangedElsewhere({ onReload }: { onReload: () => void }) {
  return (
    <div class="result result-warn changed-elsewhere" role="status" data-testid="settings-changed">
      <p>{t('settings_changed_elsewhere')}</p>
      <div class="actions">
        {/* Pressing it keeps the focus in the box being edited: leaving the box would apply the edit it drops. */}
        <button type="button" data-action="reload-settings" onMouseDown={(e) => e.preventDefault()} onClick={onReload}>
          {t('settings_reload')}
        </button>
      </div>
    </div>
  );
}

/** While an edit is not applied, leaving the page (reload, close, navigate) asks first. */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const guard = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Chrome before 119 asks only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [unsaved]);
}

function UnsavedBar({ fields, saving, onSave, onRevert }: { fields: (keyof SettingsForm)[]; saving: boolean; onSave: () => void; onRevert: () => void }) {
  return (
    <div class="unsaved-bar" role="status" data-testid="settings-unsaved">
      <p>{t('settings_unsaved', fields.map(fieldLabel).join(', '))}</p>
      <div class="actions">
        <button type="submit" class="btn-primary" disabled={saving} data-action="save-settings" onClick={onSave}>
          {t('save')}
        </button>
        <button type="button" disabled={saving} onMouseDown={(e) => e.preventDefault()} onClick={onRevert}>
          {t('revert')}
        </button>
      </div>
    </div>
  );
}

/** `version` grows when settings changed anywhere (Options.tsx, env.watchChanges). */
export function SettingsSection({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const settings = useSettings(env, version);
  const { state, errors, saving, policy, set, commit } = settings;
  const unsaved = state.phase === 'ready' ? changedFields(state.form, state.saved) : [];
  useLeaveGuard(unsaved.length > 0);
  if (state.phase === 'loading') return <Loading />;
  if (state.phase === 'error') return <Failed text={t('settings_error', state.message)} />;
  const { form } = state;
  return (
    <form class="settings" onSubmit={(e) => e.preventDefault()} noValidate>
      <SiteAccessPanel env={env} version={version} />
      <p class="hint" data-testid="settings-rule">
        {t('settings_apply_note')}
      </p>
      {policy?.active && <PolicyPanel policy={policy} />}
      {state.newer && <ChangedElsewhere onReload={settings.loadNewer} />}
      {CHECK_FIELDS.map((f) => (
        <CheckField key={f} field={f} form={form} managed={isManaged(policy, f)} set={(field, v) => settings.apply(field, v, fieldLabel(field))} />
      ))}
      {LIST_FIELDS.map((f) => (
        <TextField key={f} field={f} form={form} managed={isManaged(policy, f)} error={errors[f]} set={set} commit={commit} />
      ))}
      <h3 class="subhead">{t('set_advanced')}</h3>
      {JSON_FIELDS.map((f) => (
        <JsonField key={f} field={f} form={form} managed={isManaged(policy, f)} error={errors[f]} set={set} commit={commit} />
      ))}
      {unsaved.length > 0 && <UnsavedBar fields={unsaved} saving={saving} onSave={() => void settings.save()} onRevert={settings.revert} />}
    </form>
  );
}
