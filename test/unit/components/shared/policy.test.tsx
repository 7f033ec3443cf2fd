// @vitest-environment happy-dom
// The pages under an organisation's policy: the options page marks managed settings and does not
// let them be edited, the popup's Approve explains the signed-only policy, and a key the
// administrator pinned offers no "Trust new key".
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { DEFAULT_SETTINGS } from '../../../../lib/types';
import type { PolicySummary } from '../../../../lib/messages';
import { Options } from '../../../../components/options/Options';
import { Popup } from '../../../../components/popup/Popup';
import type { PopupTarget } from '../../../../components/popup/target';
import { FP_NEW, FP_OLD, ORIGIN, makePin, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { changeSignal, click, fakeBackground, mount, optionsEnv, optionsPageHandlers, popupEnv, type Handlers } from '../harness';
import type { OriginReport } from '../../../../lib/types';

afterEach(() => {
  document.body.innerHTML = '';
});

const POLICY: PolicySummary = {
  active: true,
  managedFields: ['paused', 'denyList'],
  requireSigned: true,
  pinnedKeys: [{ origin: ORIGIN, fingerprint: FP_OLD }],
  invalid: ['bogus: not a Skillpin policy (ignored)'],
};

function options(handlers: Handlers) {
  const bg = fakeBackground({
    ...optionsPageHandlers(),
    'skillpin:settings-get': () => ({ ...DEFAULT_SETTINGS, paused: true, denyList: ['https://bank.example'] }),
    ...handlers,
  });
  const env = optionsEnv(bg.client);
  return { bg, render: () => mount(<Options env={env} />) };
}

describe('options page under a policy', () => {
  it('marks the managed settings and does not let them be changed; the others stay editable', async () => {
    const { render } = options({ 'skillpin:policy-get': () => POLICY });
    const root = await render();
    const paused = root.querySelector<HTMLInputElement>('#set-paused');
    const deny = root.querySelector<HTMLTextAreaElement>('#set-denyList');
    expect(paused?.disabled).toBe(true);
    expect(deny?.readOnly).toBe(true);
    expect(root.querySelector('[data-testid="managed-paused"]')?.textContent).toBe('Managed by your organisation');
    expect(root.querySelector('[data-testid="managed-denyList"]')).not.toBeNull();
    expect(deny?.getAttribute('aria-describedby')).toContain('set-denyList-managed');
    expect(root.querySelector<HTMLInputElement>('#set-legacyIndex')?.disabled).toBe(false);
    expect(root.querySelector<HTMLTextAreaElement>('#set-allowList')?.readOnly).toBe(false);
    expect(root.querySelector('[data-testid="managed-allowList"]')).toBeNull();
    const panel = root.querySelector('[data-testid="policy-panel"]');
    expect(panel?.querySelector('[data-testid="policy-require-signed"]')).not.toBeNull();
    expect(panel?.querySelector(`[data-origin="${ORIGIN}"] [data-fingerprint]`)?.getAttribute('data-fingerprint')).toBe(FP_OLD);
    expect(panel?.querySelector('[data-testid="policy-invalid"]')?.textContent).toContain('bogus');
  });

  it('follows a policy change announced as a settings change (the STATE_CHANGE_KEY signal)', async () => {
    let policy: PolicySummary = { active: false, managedFields: [], requireSigned: false, pinnedKeys: [], invalid: [] };
    const bg = fakeBackground({ ...optionsPageHandlers(), 'skillpin:policy-get': () => policy });
    const signal = changeSignal();
    const env = optionsEnv(bg.client, { watchChanges: signal.watchChanges });
    const root = await mount(<Options env={env} />);
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.disabled).toBe(false);
    policy = { ...policy, active: true, managedFields: ['paused'] };
    await signal.changed('settings');
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.disabled).toBe(true);
    expect(root.querySelector('[data-testid="managed-paused"]')).not.toBeNull();
  });

  it('without a policy nothing is marked and there is no panel', async () => {
    const none: PolicySummary = { active: false, managedFields: [], requireSigned: false, pinnedKeys: [], invalid: [] };
    const { render } = options({ 'skillpin:policy-get': () => none });
    const root = await render();
    expect(root.querySelector('[data-testid="policy-panel"]')).toBeNull();
    expect(root.querySelector('.managed')).toBeNull();
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.disabled).toBe(false);
  });
});

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };

function popup(report: OriginReport, policy: PolicySummary) {
  const bg = fakeBackground({ 'skillpin:report': () => report, 'skillpin:probe': () => report, 'skillpin:policy-get': () => policy, 'skillpin:approve': () => ({ ok: true }) });
  const env = popupEnv(bg.client);
  return { bg, render: () => mount(<Popup env={env} target={TARGET} />) };
}

describe('popup under a policy', () => {
  it('signed-only: Approve of a verified skill is disabled and says why; nothing is sent', async () => {
    const { render, bg } = popup(makeReport([makeSkill({ status: 'verified' })]), POLICY);
    const root = await render();
    const button = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(button?.disabled).toBe(true);
    const reason = root.querySelector(`[id="${button?.getAttribute('aria-describedby') ?? ''}"]`);
    expect(reason?.textContent).toMatch(/^Your organisation allows only verified-signed skills to be approved; this one is /);
    await click(button);
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
  });

  it('signed-only: a verified-signed skill can still be approved', async () => {
    const { render, bg } = popup(makeReport([makeSkill({ status: 'verified-signed', signature: { state: 'valid', message: null } })]), POLICY);
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(bg.ofType('skillpin:approve')).toHaveLength(1);
  });

  it('a key the administrator pinned: the banner says so, shows no dates and offers no Trust new key', async () => {
    const report = makeReport([makeSkill({ status: 'key-changed', signature: { state: 'not-checked', message: null } })], {
      key: { state: 'changed', pinned: makePin({ firstSeen: 0, lastSeen: 0 }), offered: { key: 'BBBB', fingerprint: FP_NEW, source: 'index' }, conflicting: null, pinnedBy: 'policy' },
    });
    const { render } = popup(report, POLICY);
    const root = await render();
    const banner = root.querySelector('[data-testid="key-banner"]');
    expect(banner?.querySelector('[data-testid="key-old"] [data-fingerprint]')?.getAttribute('data-fingerprint')).toBe(FP_OLD);
    expect(banner?.querySelector('[data-testid="key-pinned-by-policy"]')?.textContent).toBe('Pinned by your administrator');
    expect(banner?.querySelector('[data-testid="first-seen"]')).toBeNull();
    expect(banner?.querySelector('[data-testid="key-locked"]')).not.toBeNull();
    expect(root.querySelector('[data-action="trust-key"]')).toBeNull();
  });
});
