// "Desktop agents" (docs/desktop.md): the switch, off by default, that asks for nativeMessaging;
// how the connection to Skillpin's desktop program stands and how to install it; the agent
// agents to copy skills for; and what the program holds, with the per-agent confirmation a
// skill that grants tools or carries scripts needs. The state and requests are in use-desktop.ts.
import { Failed, Loading } from '../shared/Placeholders';
import { t } from '../../lib/i18n';
import type { DesktopStatus } from '../../lib/messages';
import { DESKTOP_STATES, TONE_BOX } from '../shared/status';
import { formatDate } from '../shared/format';
import { DesktopInstall, DesktopUpdate } from './DesktopInstall';
import { DesktopAgents } from './DesktopAgents';
import { DesktopSkills } from './DesktopSkills';
import { NATIVE_HOST_NAME } from '../../lib/desktop/protocol/limits';
import type { OptionsEnv } from './env';
import { type DesktopModel, useDesktop } from './use-desktop';

/** The browser found no program to start, or one it may not start: the install command is shown open. */
const hostMissing = (status: DesktopStatus): boolean => status.state === 'host-absent' || status.state === 'forbidden';

/** What the browser said, in the page's own words where the words are known; the browser's own sentence only for a lost connection. */
function detailOf(status: DesktopStatus): string | null {
  if (status.state === 'host-absent') return t('desktop_detail_not_found', NATIVE_HOST_NAME);
  if (status.state === 'forbidden') return t('desktop_detail_forbidden', NATIVE_HOST_NAME);
  return status.state === 'retrying' && status.message ? t('desktop_detail', status.message) : null;
}

/** What the last check asked, when, and (when the browser found nothing) where the browser looks. */
function Checked({ status }: { status: DesktopStatus }) {
  if (status.checkedAt === null || status.state === 'off') return null;
  return (
    <div class="hint" data-testid="desktop-checked">
      <p>{t('desktop_checked_at', formatDate(status.checkedAt), NATIVE_HOST_NAME)}</p>
      {hostMissing(status) && status.manifestPlaces.length > 0 && (
        <>
          <p>{t('desktop_looks_in')}</p>
          <ul data-testid="desktop-manifest-places">
            {status.manifestPlaces.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function StatePanel({ model, status }: { model: DesktopModel; status: DesktopStatus }) {
  const good = status.state === 'in-sync';
  const tone = DESKTOP_STATES[status.state].tone;
  const detail = detailOf(status);
  return (
    <div class={`result ${TONE_BOX[tone]}`} role="status" data-testid="desktop-state" data-state={status.state} data-tone={tone}>
      <p>{good ? t('desktop_state_in_sync', status.skills.length) : t(DESKTOP_STATES[status.state].label)}</p>
      {detail && <p class="hint">{detail}</p>}
      {good && status.syncedAt !== null && <p class="hint">{t('desktop_synced_at', formatDate(status.syncedAt))}</p>}
      <Checked status={status} />
      {status.enabled && status.state !== 'off' && (
        <div class="actions">
          <button type="button" data-action="desktop-check" disabled={model.busy} onClick={() => void model.check()}>
            {t('desktop_check')}
          </button>
        </div>
      )}
      {model.carrying && model.carrierUrl && <iframe hidden src={model.carrierUrl} title={t('desktop_carrier_title')} data-testid="desktop-carrier" />}
      {hostMissing(status) && <DesktopInstall command={status.installCommand} open />}
      {status.state === 'outdated' && status.update && <DesktopUpdate update={status.update} version={status.hostVersion} />}
    </div>
  );
}

export function DesktopSection({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const model = useDesktop(env, version);
  const { status, settings } = model;
  if (model.error) return <Failed text={t('desktop_error', model.error)} />;
  if (!status || !settings) return <Loading />;
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
          disabled={model.busy}
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
          <DesktopSkills status={status} />
        </>
      )}
      {!hostMissing(status) && status.installCommand !== '' && <DesktopInstall command={status.installCommand} open={false} />}
    </div>
  );
}
