// @vitest-environment happy-dom
// The options page's "Desktop agents" section against a fake background: off by default with the
// install command for this browser; the switch asks the browser for nativeMessaging from the click
// before anything else and saves nothing when refused; when Chrome's background cannot reach the
// program yet the page carries the port in a hidden frame and checks again once it is taken; agent folders are
// settings; a skill that grants tools is allowed per agent only through a dialog that says what
// the agent may then do, bound to the revision shown.
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { DesktopSection } from '../../../../components/options/DesktopSection';
import { t } from '../../../../lib/i18n';
import type { DesktopSkillStatus, DesktopStatus } from '../../../../lib/messages';
import { mergeSettings } from '../../../../lib/store/settings';
import { DEFAULT_SETTINGS, type Settings } from '../../../../lib/types';
import { AnnouncerProvider } from '../../../../components/shared/Announcer';
import { click, DESKTOP_OFF, fakeBackground, flush, mount, optionsEnv, type Handlers } from '../harness';

const ORIGIN = 'https://docs.example.com';
const RUNNER: DesktopSkillStatus = {
  origin: ORIGIN,
  url: `${ORIGIN}/skills/runner/SKILL.md`,
  name: 'runner',
  revision: 'c'.repeat(64),
  tools: ['allowed-tools'],
  scripts: ['scripts/build.sh'],
  needsConfirmation: true,
  agents: [{ agent: 'claude-code', confirmed: false, state: 'needs-confirmation', folder: null, message: null }],
};

function world(opts: { granted?: boolean; status?: DesktopStatus; check?: { status: DesktopStatus }; settings?: Settings; carrier?: string } = {}) {
  let settings = structuredClone(opts.settings ?? DEFAULT_SETTINGS);
  const order: string[] = [];
  const handlers: Handlers = {
    'skillpin:settings-get': () => structuredClone(settings),
    'skillpin:settings-update': (req) => {
      order.push('settings-update');
      settings = mergeSettings(settings, req.changes);
      return { ok: true, settings };
    },
    'skillpin:desktop-status': () => opts.status ?? { ...DESKTOP_OFF, enabled: settings.desktopMirror },
    'skillpin:desktop-check': () => {
      order.push('desktop-check');
      return opts.check ?? { status: opts.status ?? DESKTOP_OFF };
    },
  };
  const bg = fakeBackground(handlers);
  const env = optionsEnv(bg.client, {
    requestNativeMessaging: () => {
      order.push('permission-request');
      return Promise.resolve(opts.granted ?? true);
    },
    ...(opts.carrier ? { nativeCarrierUrl: opts.carrier } : {}),
  });
  return {
    bg,
    order,
    settings: () => settings,
    render: () =>
      mount(
        <AnnouncerProvider>
          <DesktopSection env={env} />
        </AnnouncerProvider>,
      ),
  };
}

async function toggle(el: HTMLInputElement | null, value: boolean): Promise<void> {
  if (!el) throw new Error('checkbox not found');
  await act(() => {
    el.checked = value;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await flush();
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Desktop agents in the options page', () => {
  it('is off by default and shows how to install the program for this browser', async () => {
    const w = world();
    const root = await w.render();
    expect(root.querySelector<HTMLInputElement>('#desktop-switch')?.checked).toBe(false);
    expect(root.querySelector('[data-testid="desktop-state"]')?.getAttribute('data-state')).toBe('off');
    expect(root.querySelector('[data-testid="desktop-install-command"]')?.textContent).toBe('bin/skillpin install-host --chrome-id abcdefghijklmnopabcdefghijklmnop');
    // No agent folder can be picked while it is off.
    expect(root.querySelector('[data-agent="claude-code"]')).toBeNull();
  });

  it('turning it on asks the browser for nativeMessaging first, from the click, then saves and brings the mirror up to date', async () => {
    const w = world();
    const root = await w.render();
    await toggle(root.querySelector('#desktop-switch'), true);
    expect(w.order).toEqual(['permission-request', 'settings-update', 'desktop-check']);
    expect(w.settings().desktopMirror).toBe(true);
  });

  it('when the browser refuses, nothing is saved and the page says so', async () => {
    const w = world({ granted: false });
    const root = await w.render();
    await toggle(root.querySelector('#desktop-switch'), true);
    expect(w.order).toEqual(['permission-request']);
    expect(w.settings().desktopMirror).toBe(false);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toBe(t('desktop_permission_refused'));
  });

  it("Chrome's background cannot reach the program yet: a hidden frame carries the port, and the page checks again once the background took it", async () => {
    const waiting: DesktopStatus = { ...DESKTOP_OFF, enabled: true, permission: true, state: 'restart-needed', checkedAt: Date.now() };
    const w = world({ check: { status: waiting }, carrier: 'chrome-extension://abc/native-relay.html' });
    const root = await w.render();
    expect(root.querySelector('[data-testid="desktop-carrier"]')).toBeNull();
    await toggle(root.querySelector('#desktop-switch'), true);
    expect(root.querySelector('[data-testid="desktop-state"]')?.textContent).toContain(t('desktop_state_restart_needed'));
    expect(root.querySelector('[data-testid="desktop-carrier"]')?.getAttribute('src')).toBe('chrome-extension://abc/native-relay.html');
    const before = w.order.filter((o) => o === 'desktop-check').length;
    // A message from another origin is no signal; the carrier's own is.
    await act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data: 'skillpin:native-relay-ready', origin: 'https://evil.example' }));
    });
    await flush();
    expect(w.order.filter((o) => o === 'desktop-check').length).toBe(before);
    await act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data: 'skillpin:native-relay-ready', origin: location.origin }));
    });
    await flush();
    expect(w.order.filter((o) => o === 'desktop-check').length).toBe(before + 1);
  });

  it("Check again says what it asked, when, and where the browser looks, in the page's words", async () => {
    const w = world({
      settings: { ...DEFAULT_SETTINGS, desktopMirror: true },
      status: {
        ...DESKTOP_OFF,
        enabled: true,
        permission: true,
        state: 'host-absent',
        message: 'Specified native messaging host not found.',
        checkedAt: Date.UTC(2026, 11, 4, 12, 0),
        manifestPlaces: ['~/.config/chromium/NativeMessagingHosts/ (Chromium)'],
        skills: [],
      },
    });
    const root = await w.render();
    const box = root.querySelector('[data-testid="desktop-state"]')?.textContent ?? '';
    expect(box).toContain(t('desktop_detail_not_found', 'dev.skillpin.mirror'));
    expect(box).not.toContain('Specified native messaging host');
    expect(root.querySelector('[data-testid="desktop-checked"]')?.textContent).toContain('dev.skillpin.mirror');
    expect(root.querySelector('[data-testid="desktop-manifest-places"]')?.textContent).toContain('~/.config/chromium/NativeMessagingHosts/ (Chromium)');
    expect(root.querySelector('[data-testid="desktop-skills-empty"]')?.textContent).toBe(t('desktop_skills_unknown'));
  });

  it('the program not installed: the install command is open, with Check again', async () => {
    const w = world({
      settings: { ...DEFAULT_SETTINGS, desktopMirror: true },
      status: { ...DESKTOP_OFF, enabled: true, permission: true, state: 'host-absent', message: 'Specified native messaging host not found.' },
    });
    const root = await w.render();
    expect(root.querySelector('[data-testid="desktop-state"]')?.textContent).toContain(t('desktop_state_host_absent'));
    expect(root.querySelector<HTMLDetailsElement>('[data-testid="desktop-install"]')?.open).toBe(true);
    await click(root.querySelector('[data-action="desktop-check"]'));
    expect(w.order).toEqual(['desktop-check']);
  });

  it('two agents ticked in a row, the second before the first is answered: both stay ticked and both are saved', async () => {
    const w = world({ settings: { ...DEFAULT_SETTINGS, desktopMirror: true }, status: { ...DESKTOP_OFF, enabled: true, permission: true, state: 'in-sync' } });
    const root = await w.render();
    const box = (agent: string) => root.querySelector<HTMLInputElement>(`[data-agent="${agent}"]`);
    await act(() => {
      for (const agent of ['claude-code', 'codex']) {
        const el = box(agent) as HTMLInputElement;
        el.checked = true;
        el.dispatchEvent(new Event('change', { bubbles: true }));
      }
    });
    expect(box('codex')?.disabled).toBe(false);
    await flush();
    expect(w.settings().desktopAgents).toEqual(['claude-code', 'codex']);
    expect(box('claude-code')?.checked).toBe(true);
    expect(box('codex')?.checked).toBe(true);
  });

  it('agents are picked one by one, with what files there are trusted with said first', async () => {
    const w = world({ settings: { ...DEFAULT_SETTINGS, desktopMirror: true }, status: { ...DESKTOP_OFF, enabled: true, permission: true, state: 'in-sync' } });
    const root = await w.render();
    expect(root.querySelector('[data-testid="desktop-trust"]')?.textContent).toBe(t('desktop_trust_warning'));
    await toggle(root.querySelector('[data-agent="gemini-cli"]'), true);
    await toggle(root.querySelector('[data-agent="claude-code"]'), true);
    expect(w.settings().desktopAgents).toEqual(['gemini-cli', 'claude-code']);
    await toggle(root.querySelector('[data-agent="gemini-cli"]'), false);
    expect(w.settings().desktopAgents).toEqual(['claude-code']);
  });

  it('lists the six agents, marks those the program found, and says which folders it writes and who sees them', async () => {
    const status: DesktopStatus = { ...DESKTOP_OFF, enabled: true, permission: true, state: 'in-sync', found: ['claude-code', 'cursor'] };
    const w = world({ settings: { ...DEFAULT_SETTINGS, desktopMirror: true, desktopAgents: ['claude-code', 'codex', 'copilot'] }, status });
    const root = await w.render();
    const agents = [...root.querySelectorAll<HTMLInputElement>('.desktop-agents input[data-agent]')].map((el) => el.dataset.agent);
    expect(agents).toEqual(['claude-code', 'codex', 'gemini-cli', 'copilot', 'opencode', 'cursor']);
    const found = (agent: string) => root.querySelector(`#desktop-agent-${agent}`)?.parentElement?.querySelector('[data-found]')?.getAttribute('data-found');
    expect([found('claude-code'), found('codex'), found('cursor')]).toEqual(['yes', 'no', 'yes']);
    expect(root.querySelector('[data-testid="desktop-folders"]')?.getAttribute('data-folders')).toBe('claude-code agents');
    // Copilot reads both folders: no choice avoids its second copy, and the page says so.
    expect(root.querySelector('[data-testid="desktop-twice"]')?.textContent).toBe(t('desktop_agents_twice', t('desktop_agent_copilot')));
    await toggle(root.querySelector('[data-agent="codex"]'), false);
    expect(root.querySelector('[data-testid="desktop-folders"]')?.getAttribute('data-folders')).toBe('claude-code');
    expect(root.querySelector('[data-testid="desktop-twice"]')).toBeNull();
  });

  it('shows which agents see each skill handed over', async () => {
    const plain: DesktopSkillStatus = {
      ...RUNNER,
      tools: [],
      scripts: [],
      needsConfirmation: false,
      agents: [{ agent: 'gemini-cli', confirmed: false, state: 'written', folder: 'runner', message: null }],
    };
    const status: DesktopStatus = { ...DESKTOP_OFF, enabled: true, permission: true, state: 'in-sync', skills: [plain] };
    const w = world({ settings: { ...DEFAULT_SETTINGS, desktopMirror: true, desktopAgents: ['gemini-cli'] }, status });
    const root = await w.render();
    expect(root.querySelector('[data-testid="desktop-seen-by"]')?.textContent).toBe(t('desktop_skill_seen_by', t('desktop_agent_gemini_cli')));
  });

  it('a skill that grants tools is listed with its tools and scripts, with no per-agent confirmation; a refused skill shows why', async () => {
    const refusal = { origin: ORIGIN, url: `${ORIGIN}/skills/hooked/SKILL.md`, message: t('err_needs_confirmation', 'runs commands as soon as it is loaded') };
    const status: DesktopStatus = { ...DESKTOP_OFF, enabled: true, permission: true, state: 'in-sync', skills: [RUNNER], refused: [refusal] };
    const w = world({ settings: { ...DEFAULT_SETTINGS, desktopMirror: true, desktopAgents: ['claude-code'] }, status });
    const root = await w.render();
    const row = root.querySelector('[data-skill-url="https://docs.example.com/skills/runner/SKILL.md"]');
    expect(row?.textContent).toContain(t('desktop_skill_tools', 'allowed-tools'));
    expect(row?.textContent).toContain(t('desktop_skill_scripts', 'scripts/build.sh'));
    // The one approval confirmation covers every agent folder: nothing here to allow per agent.
    expect(row?.querySelector('button')).toBeNull();
    expect(root.querySelector('[data-testid="desktop-refused"]')?.textContent).toBe(t('desktop_refused_item', refusal.url, refusal.message));
  });
});
