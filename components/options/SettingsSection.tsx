// The settings form (PRODUCT.md, settings): loaded from the background, saved as the fields the
// user changed, following settings changed elsewhere unless it holds unsaved edits, and locked
// where the organisation's policy sets a field. The state and requests are in use-settings.ts.
import { t } from '../../lib/i18n';
import type { OptionsEnv } from './env';
import { isManaged, PolicyPanel } from './PolicyPanel';
import { CHECKS, CheckField, JSON_TEXTS, JsonField, TEXTS, TextField } from './SettingsFields';
import { SiteAccessPanel } from './SiteAccessPanel';
import { useSettings } from './use-settings';

function ChangedElsewhere({ onReload }: { onReload: () => void }) {
  return (
    <div class="result result-warn changed-elsewhere" role="status" data-testid="settings-changed">
      <p>{t('settings_changed_elsewhere')}</p>
      <div class="actions">
        <button type="button" data-action="reload-settings" onClick={onReload}>
          {t('settings_reload')}
        </button>
      </div>
    </div>
  );
}

/** `version` grows when settings changed anywhere (Options.tsx, env.watchChanges). */
export function SettingsSection({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const settings = useSettings(env, version);
  const { state, errors, saving, policy, set } = settings;
  if (state.phase === 'loading')
    return (
      <p class="loading" aria-busy="true">
        {t('loading')}
      </p>
    );
  if (state.phase === 'error')
    return (
      <p class="error" role="alert">
        {t('settings_error', state.message)}
      </p>
    );
  const { form } = state;
  const dirty = JSON.stringify(form) !== JSON.stringify(state.saved);
  return (
    <form
      class="settings"
      onSubmit={(e) => {
        e.preventDefault();
        void settings.save();
      }}
      noValidate
    >
      <SiteAccessPanel env={env} version={version} />
      {policy?.active && <PolicyPanel policy={policy} />}
      {state.newer && <ChangedElsewhere onReload={settings.loadNewer} />}
      {CHECKS.map((c) => (
        <CheckField key={c.field} spec={c} form={form} managed={isManaged(policy, c.field)} set={set} />
      ))}
      {TEXTS.map((f) => (
        <TextField key={f.field} spec={f} form={form} managed={isManaged(policy, f.field)} error={errors[f.field]} set={set} />
      ))}
      <h3 class="subhead">{t('set_advanced')}</h3>
      {JSON_TEXTS.map((f) => (
        <JsonField key={f.field} spec={f} form={form} managed={isManaged(policy, f.field)} error={errors[f.field]} set={set} />
      ))}
      <div class="actions">
        <button type="submit" class="btn-primary" disabled={saving} data-action="save-settings">
          {t('save')}
        </button>
        <button type="button" disabled={!dirty || saving} onClick={settings.revert}>
          {t('revert')}
        </button>
      </div>
    </form>
  );
}
