// @vitest-environment happy-dom
// A desktop program older than the last security fix. The options page says
// so, names both versions and shows the exact command that updates it (from the background's
// status, lib/background/desktop-status.ts updateOf).
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { DesktopSection } from '../../../../components/options/DesktopSection';
import { updateOf } from '../../../../lib/background/desktop-status';
import { MIN_HOST_VERSION } from '../../../../lib/desktop/protocol/limits';
import { t } from '../../../../lib/i18n';
import type { DesktopStatus } from '../../../../lib/messages';
import { DEFAULT_SETTINGS } from '../../../../lib/types';
import { AnnouncerProvider } from '../../../../components/shared/Announcer';
import { DESKTOP_OFF, fakeBackground, mount, optionsEnv } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('an outdated desktop program in the options page', () => {
  it('says it is older than the last security fix and shows the command that updates it', async () => {
    const command = 'bin/skillpin install-host --chrome-id abcdefghijklmnopabcdefghijklmnop';
    const status: DesktopStatus = {
      ...DESKTOP_OFF,
      enabled: true,
      permission: true,
      state: 'outdated',
      hostVersion: '1.0.0',
      message: 'The desktop program is version 1.0.0.',
      installCommand: command,
      update: updateOf(command),
    };
    const settings = { ...DEFAULT_SETTINGS, desktopMirror: true };
    const bg = fakeBackground({
      'skillpin:settings-get': () => structuredClone(settings),
      'skillpin:desktop-status': () => status,
      'skillpin:desktop-check': () => ({ restarting: false, status }),
    });
    const root = await mount(
      <AnnouncerProvider>
        <DesktopSection env={optionsEnv(bg.client)} />
      </AnnouncerProvider>,
    );
    expect(root.querySelector('[data-testid="desktop-state"]')?.getAttribute('data-state')).toBe('outdated');
    expect(root.textContent).toContain(t('desktop_state_outdated'));
    expect(root.querySelector('[data-testid="desktop-update"]')?.textContent).toContain('1.0.0');
    expect(root.querySelector('[data-testid="desktop-update"]')?.textContent).toContain(MIN_HOST_VERSION);
    expect(root.querySelector('[data-testid="desktop-update-command"]')?.textContent).toBe(command);
  });
});
