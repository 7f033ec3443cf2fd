// The desktop agents section's state (docs/desktop.md): how the mirror stands, the settings it
// follows (the switch, the agent folders, the confirmations), and the user's changes, each sent
// as the settings fields it changes. Turning the feature on asks the browser for nativeMessaging
// from the click itself, before anything else is awaited.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DesktopAgentId } from '../../lib/desktop/protocol/agents';
import { AGENT_FOLDERS, type AgentId } from '../../lib/desktop/protocol/limits';
import { t } from '../../lib/i18n';
import type { DesktopStatus } from '../../lib/messages';
import type { Settings } from '../../lib/types';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import { RELAY_READY } from '../../lib/desktop/relay';
import type { OptionsEnv } from './env';

export type DesktopModel = ReturnType<typeof useDesktop>;

/** `version` grows when settings or trust state changed anywhere (Options.tsx). */
export function useDesktop(env: OptionsEnv, version: number) {
  const announce = useAnnounce();
  const [status, setStatus] = useState<DesktopStatus | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /**
   * This page carries the native port for the background (Chrome, between the grant and the
   * background's next start): the hidden frame that does it stays for the page's life.
   */
  const [carrying, setCarrying] = useState(false);
  const seq = useRef(0);
  /** The settings as the page shows them, changes not answered yet included (a second tick builds on the first). */
  const latest = useRef<Settings | null>(null);
  const pending = useRef(0);

  async function load(): Promise<void> {
    const n = ++seq.current;
    try {
      const [s, st] = await Promise.all([env.client.settingsGet(), env.client.desktopStatus()]);
      if (n !== seq.current) return;
      // A change still on its way is shown as made: the stored settings follow once it is answered.
      if (pending.current === 0) {
        latest.current = s;
        setSettings(s);
      }
      setStatus(st);
      setError(null);
    } catch (err) {
      if (n === seq.current) setError(errorText(err));
    }
  }

  // Again whenever the page learns of a change of settings or trust state.
  useEffect(() => {
    void load();
  }, [env, version]);

  async function change(changes: Partial<Settings>): Promise<boolean> {
    // Shown at once (a box the user ticked stays ticked); the settings as stored follow the answer.
    if (latest.current !== null) {
      latest.current = { ...latest.current, ...changes };
      setSettings(latest.current);
    }
    pending.current += 1;
    setBusy(true);
    try {
      const res = await env.client.settingsUpdate(changes);
      if (!res.ok) announce(t('desktop_save_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
      return res.ok;
    } catch (err) {
      announce(t('desktop_save_failed', errorText(err)), 'error');
      return false;
    } finally {
      pending.current -= 1;
      if (pending.current === 0) setBusy(false);
      await load();
    }
  }

  async function check(): Promise<void> {
    setBusy(true);
    try {
      setStatus((await env.client.desktopCheck()).status);
    } catch (err) {
      announce(t('desktop_save_failed', errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  // Chrome's background cannot reach the program before it starts again: this page carries the port.
  const needsCarrier = status !== null && status.enabled && status.permission && status.state === 'restart-needed' && env.nativeCarrierUrl !== undefined;
  useEffect(() => {
    if (needsCarrier) setCarrying(true);
  }, [needsCarrier]);
  // The carrier frame says when the background took it: check again, now through it.
  useEffect(() => {
    if (!carrying) return;
    const ready = (e: MessageEvent): void => {
      if (e.origin === location.origin && e.data === RELAY_READY) void check().then(load);
    };
    window.addEventListener('message', ready);
    return () => window.removeEventListener('message', ready);
  }, [carrying]);

  /** Call from the click: the browser's permission prompt needs the user's gesture. */
  function turnOn(): void {
    // Asked now, inside the click: a prompt requested after an await is refused by the browser.
    const asked = env.requestNativeMessaging ? env.requestNativeMessaging() : Promise.resolve(false);
    void (async () => {
      const granted = await asked.catch(() => false);
      if (!granted) {
        announce(t('desktop_permission_refused'), 'error');
        await load();
        return;
      }
      if (await change({ desktopMirror: true })) await check();
    })();
  }

  return {
    status,
    settings,
    error,
    busy,
    carrying,
    /** The carrier page's URL (OptionsEnv.nativeCarrierUrl). */
    carrierUrl: env.nativeCarrierUrl,
    turnOn,
    turnOff: () => change({ desktopMirror: false }),
    setAgent: async (agent: DesktopAgentId, on: boolean) => {
      const now = latest.current?.desktopAgents ?? [];
      await change({ desktopAgents: on ? [...now.filter((a) => a !== agent), agent] : now.filter((a) => a !== agent) });
    },
    check: () => check().then(load),
  };
}

/** A skill folder the program writes, as the page shows it: its path under the home. */
export function agentName(folder: AgentId): string {
  return `~/${AGENT_FOLDERS[folder]}/`;
}
