// "Desktop agents" (docs/desktop.md): the switch, off by default, that asks for nativeMessaging;
// how the connection to Skillpin's desktop program stands and how to install it; the agent
// agents to copy skills for; and what the program holds, with the per-agent confirmation a
// skill that grants tools or carries scripts needs. The state and requests are in use-desktop.ts.
import { t } from '../../lib/i18n';
import type { DesktopStatus } from '../../lib/messages';
import { DESKTOP_STATES, type Tone } from '../shared/status';
import { formatDate } from '../shared/format';
import { DesktopInstall, DesktopUpdate } from './DesktopInstall';
import { DesktopAgents } from './DesktopAgents';
import { DesktopSkills } from './DesktopSkills';
import type { OptionsEnv } from './env';
import { type DesktopModel, useDesktop } from './use-desktop';

function stateText(status: DesktopStatus): string {
  return status.state === 'in-sync' ? t('desktop_state_in_sync', status.skills.length) : t(DESKTOP_STATES[status.state].label);
}

/** The box's colour by the state's tone (components/shared/status.ts): "Off" is neutral, not the green of success. */
const BOX: Record<Tone, string> = { good: 'result-ok', proven: 'result-info', neutral: 'result-info', caution: 'result-warn', bad: 'result-bad' };

function StatePanel({ model, status }: { model: DesktopModel; status: DesktopStatus }) {
  const good = status.state === 'in-sync';
  const needsInstall = status.state === 'host-absent' || status.state === 'forbidden';
  const tone = DESKTOP_STATES[status.state].tone;
  return (
    <div class={`result ${BOX[tone]}`} role="status" data-testid="desktop-state" data-state={status.state} data-tone={tone}>
      <p>{model.restarting ? t('desktop_restarting') : stateText(status)}</p>
      {status.message && <p class="hint">{t('desktop_detail', status.message)}</p>}
      {good && status.syncedAt !== null && <p class="hint">{t('desktop_synced_at', formatDate(status.syncedAt))}</p>}
      {status.enabled && !model.restarting && status.state !== 'off' && (
        <div class="actions">
          <button type="button" data-action="desktop-check" disabled={model.busy} onClick={() => void model.check()}>
            {status.state === 'restart-needed' ? t('desktop_restart') : t('desktop_check')}
          </button>
        </div>
      )}
      {needsInstall && <DesktopInstall command={status.installCommand} open />}
      {status.state === 'outdated' && status.update && <DesktopUpdate update={status.update} version={status.hostVersion} />}
    </div>
  );
}

export function DesktopSection({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const model = useDesktop(env, version);
  const { status, settings } = model;
  if (model.error)
    return (
      <p class="error" role="alert">
        {t('desktop_error', model.error)}
      </p>
    );
  if (!status || !settings)
    return (
      <p class="loading" aria-busy="true">
        {t('loading')}
      </p>
    );
  const on = settings.desktopMirror;
  return (
    <div class="desktop" data-testid="desktop">
      <p class="hint">{t('desktop_intro')}</p>
      <div class="field check">
        <input
          type="checkbox"
          id="desktop-switch"
          data-action="desktop-switch"
          checked={on}
          disabled={model.busy || model.restarting}
          onChange={(e) => {
            if ((e.currentTarget as HTMLInputElement).checked) model.turnOn();
            else void model.turnOff();
          }}
        />
        <label for="desktop-switch">{t('desktop_switch')}</label>
        <p class="hint">{t('desktop_switch_help')}</p>
      </div>
      <StatePanel model={model} status={status} />
      {on && (
        <>
          <DesktopAgents model={model} status={status} />
          <DesktopSkills model={model} status={status} />
        </>
      )}
      {status.state !== 'host-absent' && status.state !== 'forbidden' && status.installCommand !== '' && <DesktopInstall command={status.installCommand} open={false} />}
    </div>
  );
}
