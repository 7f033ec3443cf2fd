// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { DEFAULT_SETTINGS, type Settings } from '../../../../lib/types';
import type { ImportPreview, ImportResult } from '../../../../lib/messages';
import type { KeyHistoryEntry } from '../../../../lib/store/records';
import { Options } from '../../../../components/options/Options';
import { changedFields, fromForm, parseChatSiteEntry, parseSiteEntry, settingsChanges, toForm } from '../../../../components/options/settings-form';
import { reportFilename } from '../../../../components/options/DiagnosticsSection';
import { LIST_PAGE_ROWS, pinMatches } from '../../../../lib/types/pins-page';
import { approvalMatches } from '../../../../components/options/ApprovalsSection';
import { withEarlyAnswers } from '../../../../components/shared/early';
import { mergeSettings } from '../../../../lib/store/settings';
import { FP_NEW, FP_OLD, ORIGIN, approved, makePin, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { byText, changeSignal, click, fakeBackground, flush, mount, optionsEnv, optionsPageHandlers, typeInto, type Handlers, pinHandlers } from '../harness';
import { act } from 'preact/test-utils';

const BASE: Handlers = optionsPageHandlers();

function setup(handlers: Handlers) {
  const bg = fakeBackground({ ...BASE, ...handlers });
  const downloads: { filename: string; text: string }[] = [];
  const copied: string[] = [];
  /** What the page hears after a change anywhere (the storage.onChanged wiring in entrypoints/options). */
  const { watchChanges, changed } = changeSignal();
  const env = optionsEnv(bg.client, {
    clipboard: async (t) => {
      copied.push(t);
      return true;
    },
    download: (filename, text) => downloads.push({ filename, text }),
    watchChanges,
  });
  return { bg, downloads, copied, changed, render: () => mount(<Options env={env} />) };
}

async function check(el: HTMLInputElement | null, value: boolean) {
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

/** Stored settings behind settings-get and settings-update, merged as the background does; `saved` lists each write. */
function settingsStore(initial: Settings) {
  let current = structuredClone(initial);
  const saved: Settings[] = [];
  const handlers: Handlers = {
    'skillpin:settings-get': () => structuredClone(current),
    'skillpin:settings-update': (req) => {
      current = mergeSettings(current, req.changes);
      saved.push(structuredClone(current));
      return { ok: true, settings: structuredClone(current) };
    },
  };
  return {
    saved,
    handlers,
    /** A write from elsewhere (another page). */
    setFromElsewhere: (s: Settings) => {
      current = structuredClone(s);
    },
  };
}

describe('settings', () => {
  it('round-trips: what is loaded is shown; a tick applies at once, a list with Save', async () => {
    const stored: Settings = {
      ...DEFAULT_SETTINGS,
      paused: true,
      denyList: ['https://bank.example'],
      reviewers: { alice: { public_key: 'KEY', registered_at: '2025-01-01' } },
    };
    const store = settingsStore(stored);
    const saved = store.saved;
    const { render, bg } = setup(store.handlers);
    const root = await render();
    const paused = root.querySelector<HTMLInputElement>('#set-paused');
    expect(paused?.checked).toBe(true);
    expect(root.querySelector<HTMLTextAreaElement>('#set-denyList')?.value).toBe('https://bank.example');
    // No Save button waits below the fields: nothing is pending.
    expect(root.querySelector('[data-action="save-settings"]')).toBeNull();
    await check(paused, false);
    await check(root.querySelector<HTMLInputElement>('#set-probeInPrivate'), true);
    await check(root.querySelector<HTMLInputElement>('#set-legacyIndex'), false);
    // Each tick went out alone, at once.
    expect(bg.ofType('skillpin:settings-update').map((m) => (m as unknown as { changes: unknown }).changes)).toEqual([{ paused: false }, { probeInPrivate: true }, { legacyIndex: false }]);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Saved: Also look for the legacy index');
    await typeInto(root.querySelector('#set-allowList'), 'https://docs.example.com/some/path\n\n*.Example.org\n');
    await typeInto(root.querySelector('#set-snapshotKeys'), JSON.stringify([{ origin: ORIGIN, skillId: 'search', publicKey: 'PK', signature: 'SIG', versionPin: '1.0' }]));
    // Typed, not yet applied: the bar names both fields and stays until Save.
    expect(root.querySelector('[data-testid="settings-unsaved"]')?.textContent).toContain('Allow list');
    await click(root.querySelector('[data-action="save-settings"]'));
    expect(saved.at(-1)).toEqual({
      paused: false,
      probeInPrivate: true,
      allowListOnly: false,
      legacyIndex: false,
      shortHeader: false,
      allowList: ['https://docs.example.com', '*.example.org'],
      denyList: ['https://bank.example'],
      reviewers: { alice: { public_key: 'KEY', registered_at: '2025-01-01' } },
      snapshotKeys: [{ origin: ORIGIN, skillId: 'search', publicKey: 'PK', signature: 'SIG', versionPin: '1.0' }],
      chatSites: [],
      desktopMirror: false,
      desktopAgents: [],
      desktopConfirmed: [],
    });
    expect(saved).toHaveLength(4);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Settings saved');
    expect(root.querySelector('[data-testid="settings-unsaved"]')).toBeNull();
  });

  it('Undo in the message puts a tick back, and that too is saved', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render } = setup(store.handlers);
    const root = await render();
    await check(root.querySelector<HTMLInputElement>('#set-paused'), true);
    expect(store.saved.at(-1)?.paused).toBe(true);
    await click(document.querySelector('[data-action="message-action"]'));
    expect(store.saved.at(-1)?.paused).toBe(false);
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.checked).toBe(false);
  });

  it('a list applies when the user leaves it; an unreadable one stays pending with its error and the page guards leaving', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render } = setup(store.handlers);
    const root = await render();
    const deny = root.querySelector<HTMLTextAreaElement>('#set-denyList');
    await typeInto(deny, 'https://bank.example');
    await act(() => {
      deny?.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(store.saved.at(-1)?.denyList).toEqual(['https://bank.example']);
    expect(root.querySelector('[data-testid="settings-unsaved"]')).toBeNull();
    await typeInto(deny, 'not a site');
    await act(() => {
      deny?.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(store.saved).toHaveLength(1);
    expect(root.querySelector('#set-denyList-err')?.textContent).toContain('Line 1');
    expect(root.querySelector('[data-testid="settings-unsaved"]')?.textContent).toContain('Deny list');
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);
  });

  it('refuses to save invalid lists or JSON and says where the problem is', async () => {
    const { render, bg } = setup({ 'skillpin:settings-update': () => ({ ok: true, settings: DEFAULT_SETTINGS }) });
    const root = await render();
    await typeInto(root.querySelector('#set-denyList'), 'https://ok.example\nnot a site');
    await typeInto(root.querySelector('#set-reviewers'), '{ broken');
    await click(root.querySelector('[data-action="save-settings"]'));
    expect(bg.ofType('skillpin:settings-update')).toHaveLength(0);
    expect(root.querySelector('#set-denyList-err')?.textContent).toContain('Line 2');
    expect(root.querySelector('#set-denyList')?.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#set-reviewers-err')?.textContent).toContain('Not valid JSON');
  });

  it('Other chat sites: a labelled field that loads, normalises and saves origins', async () => {
    const store = settingsStore({ ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000'] });
    const saved = store.saved;
    const { render } = setup(store.handlers);
    const root = await render();
    const field = root.querySelector<HTMLTextAreaElement>('#set-chatSites');
    expect(field?.value).toBe('http://localhost:3000');
    expect(root.querySelector('label[for="set-chatSites"]')?.textContent).toBe('Other chat sites (one origin per line)');
    expect(field?.getAttribute('aria-describedby')).toBe('set-chatSites-help');
    await typeInto(field, 'http://localhost:3000/c/1\n\n  HTTPS://Chat.Internal.Example  \nhttp://localhost:3000\nhttp://127.0.0.1:41234\n');
    await click(root.querySelector('[data-action="save-settings"]'));
    expect(saved.map((s) => s.chatSites)).toEqual([['http://localhost:3000', 'https://chat.internal.example', 'http://127.0.0.1:41234']]);
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe('http://localhost:3000\nhttps://chat.internal.example\nhttp://127.0.0.1:41234');
  });

  it('Other chat sites: a bad line is reported with its number and nothing is saved', async () => {
    const { render, bg } = setup({ 'skillpin:settings-update': () => ({ ok: true, settings: DEFAULT_SETTINGS }) });
    const root = await render();
    for (const [text, line] of [
      ['http://localhost:3000\n*.example.com', 2],
      ['localhost:3000', 1],
      ['https://ok.example\n\nftp://files.example', 3],
      ['https://user:pw@chat.example', 1],
    ] as const) {
      await typeInto(root.querySelector('#set-chatSites'), text);
      await click(root.querySelector('[data-action="save-settings"]'));
      expect(root.querySelector('#set-chatSites-err')?.textContent, text).toContain(`Line ${line} is not an http(s) origin`);
      expect(root.querySelector('#set-chatSites')?.getAttribute('aria-invalid')).toBe('true');
      expect(root.querySelector('#set-chatSites')?.getAttribute('aria-describedby')).toBe('set-chatSites-help set-chatSites-err');
    }
    expect(bg.ofType('skillpin:settings-update')).toHaveLength(0);
  });

  it('shows a failed save and leaves the tick as stored', async () => {
    const { render } = setup({ 'skillpin:settings-update': () => ({ ok: false, error: 'storage', message: 'Disk full' }) });
    const root = await render();
    await check(root.querySelector<HTMLInputElement>('#set-paused'), true);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Disk full');
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.checked).toBe(false);
  });
});

describe('settings changed elsewhere', () => {
  const CHAT = 'http://127.0.0.1:4000';

  it('an untouched form shows the new values at once', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render, changed } = setup(store.handlers);
    const root = await render();
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe('');
    store.setFromElsewhere({ ...DEFAULT_SETTINGS, chatSites: [CHAT], paused: true });
    await changed('settings');
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe(CHAT);
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.checked).toBe(true);
    expect(root.querySelector('[data-testid="settings-changed"]')).toBeNull();
  });

  it('an edited form keeps the edits, says so, and Save writes only the edited field over the newer values', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render, changed, bg } = setup(store.handlers);
    const root = await render();
    await typeInto(root.querySelector('#set-denyList'), 'https://bank.example');
    store.setFromElsewhere({ ...DEFAULT_SETTINGS, chatSites: [CHAT], paused: true });
    await changed('settings');
    const notice = root.querySelector('[data-testid="settings-changed"]');
    expect(notice?.textContent).toContain('changed elsewhere');
    expect(notice?.getAttribute('role')).toBe('status');
    expect(root.querySelector<HTMLTextAreaElement>('#set-denyList')?.value).toBe('https://bank.example');
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe('');
    await click(root.querySelector('[data-action="save-settings"]'));
    expect(bg.ofType('skillpin:settings-update').map((m) => (m as unknown as { changes: unknown }).changes)).toEqual([{ denyList: ['https://bank.example'] }]);
    expect(store.saved).toEqual([{ ...DEFAULT_SETTINGS, chatSites: [CHAT], paused: true, denyList: ['https://bank.example'] }]);
    // The form now shows what is stored, and the notice is gone.
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe(CHAT);
    expect(root.querySelector<HTMLInputElement>('#set-paused')?.checked).toBe(true);
    expect(root.querySelector('[data-testid="settings-changed"]')).toBeNull();
  });

  it('Reload drops the edits and shows the newer settings', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render, changed, bg } = setup(store.handlers);
    const root = await render();
    await typeInto(root.querySelector('#set-denyList'), 'https://bank.example');
    store.setFromElsewhere({ ...DEFAULT_SETTINGS, chatSites: [CHAT] });
    await changed('settings');
    await click(root.querySelector('[data-action="reload-settings"]'));
    expect(root.querySelector<HTMLTextAreaElement>('#set-denyList')?.value).toBe('');
    expect(root.querySelector<HTMLTextAreaElement>('#set-chatSites')?.value).toBe(CHAT);
    expect(root.querySelector('[data-testid="settings-changed"]')).toBeNull();
    expect(bg.ofType('skillpin:settings-update')).toHaveLength(0);
  });

  it('the page hearing its own Save shows no notice', async () => {
    const store = settingsStore(DEFAULT_SETTINGS);
    const { render, changed } = setup(store.handlers);
    const root = await render();
    await typeInto(root.querySelector('#set-denyList'), 'https://bank.example');
    await click(root.querySelector('[data-action="save-settings"]'));
    await typeInto(root.querySelector('#set-allowList'), 'https://docs.example');
    await changed('settings');
    expect(root.querySelector('[data-testid="settings-changed"]')).toBeNull();
    expect(root.querySelector<HTMLTextAreaElement>('#set-allowList')?.value).toBe('https://docs.example');
  });

  it('a change of trust state reloads the pin list', async () => {
    let pins = [makePin({ origin: 'https://a.example' })];
    const { render, changed } = setup({ ...pinHandlers(() => pins) });
    const root = await render();
    expect(root.querySelector('[data-origin="https://b.example"]')).toBeNull();
    pins = [...pins, makePin({ origin: 'https://b.example' })];
    await changed('trust');
    expect(root.querySelector('[data-origin="https://b.example"]')).not.toBeNull();
  });

  it('Save sends only the fields that differ from the form as loaded, even when parsing would normalise the others', () => {
    const loaded = toForm({ ...DEFAULT_SETTINGS, denyList: ['https://BANK.example/path'] });
    const form = { ...loaded, paused: true };
    expect(changedFields(form, loaded)).toEqual(['paused']);
    const parsed = fromForm(form);
    if (!parsed.settings) throw new Error('form should parse');
    expect(settingsChanges(form, loaded, parsed.settings)).toEqual({ paused: true });
    expect(settingsChanges(loaded, loaded, parsed.settings)).toEqual({});
  });
});

describe('settings form parsing', () => {
  it('accepts origins and *.host patterns, rejects everything else', () => {
    expect(parseSiteEntry('https://a.example/x?y')).toBe('https://a.example');
    expect(parseSiteEntry('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(parseSiteEntry('*.Example.COM')).toBe('*.example.com');
    for (const bad of ['example.com', 'ftp://a.example', 'javascript:alert(1)', '*.', '*', 'https://user:pw@a.example', '*.a..b']) {
      expect(parseSiteEntry(bad), bad).toBeNull();
    }
  });

  it('chat sites: http(s) origins only, never patterns, never more than the limit', () => {
    expect(parseChatSiteEntry('http://127.0.0.1:41234/index.html')).toBe('http://127.0.0.1:41234');
    expect(parseChatSiteEntry(' https://Chat.Example:443/ ')).toBe('https://chat.example');
    expect(parseChatSiteEntry('http://[::1]:3000')).toBe('http://[::1]:3000');
    for (const bad of ['*.example.com', 'example.com', 'localhost:3000', 'ftp://a.example', 'file:///tmp/x', 'javascript:alert(1)', 'https://u:p@a.example', '']) {
      expect(parseChatSiteEntry(bad), bad).toBeNull();
    }
    const form = toForm(DEFAULT_SETTINGS);
    const many = Array.from({ length: 101 }, (_, i) => `https://h${i}.example`).join('\n');
    expect(fromForm({ ...form, chatSites: many }).errors?.chatSites).toContain('At most 100');
    expect(fromForm({ ...form, chatSites: many.split('\n').slice(0, 100).join('\n') }).settings?.chatSites).toHaveLength(100);
  });

  it('validates reviewer and snapshot-key shapes', () => {
    const form = toForm(DEFAULT_SETTINGS);
    expect(fromForm({ ...form, reviewers: '[]' }).errors?.reviewers).toBeTruthy();
    expect(fromForm({ ...form, reviewers: '{"a": {"public_key": 1}}' }).errors?.reviewers).toContain('“a”');
    expect(fromForm({ ...form, snapshotKeys: '{}' }).errors?.snapshotKeys).toBeTruthy();
    expect(fromForm({ ...form, snapshotKeys: '[{"origin":"o","skillId":"s","publicKey":"p"}]' }).errors?.snapshotKeys).toContain('signature');
    expect(fromForm({ ...form, snapshotKeys: '[{"origin":"o","skillId":"s","publicKey":"p","signature":"g","keyId":5}]' }).errors?.snapshotKeys).toContain('keyId');
    // The form edits every setting but the desktop agents' (DesktopSection has those).
    const { desktopMirror: _on, desktopAgents: _agents, desktopConfirmed: _confirmed, ...formDefaults } = DEFAULT_SETTINGS;
    expect(fromForm({ ...form, reviewers: '', snapshotKeys: '' }).settings).toEqual(formDefaults);
    expect(fromForm(form).settings).toEqual(formDefaults);
  });
});

describe('pins and approvals', () => {
  it('lists every pin; Forget asks first and then sends pin-forget', async () => {
    let pins = [makePin(), makePin({ origin: 'https://b.example', fingerprint: FP_NEW })];
    const { render, bg } = setup({
      ...pinHandlers(() => pins),
      'skillpin:pin-forget': (req) => {
        pins = pins.filter((p) => p.origin !== req.origin);
        return { ok: true };
      },
    });
    const root = await render();
    const rows = root.querySelectorAll('[data-testid="pins"] tbody tr');
    expect(rows).toHaveLength(2);
    expect(root.querySelector(`[data-fingerprint="${FP_OLD}"]`)).not.toBeNull();
    const link = root.querySelector<HTMLAnchorElement>(`[data-origin="${ORIGIN}"] a`);
    expect(link?.getAttribute('href')).toBe(`/popup.html?origin=${encodeURIComponent(ORIGIN)}`);
    await click(root.querySelector(`[data-origin="${ORIGIN}"] [data-action="forget"]`));
    expect(bg.ofType('skillpin:pin-forget')).toHaveLength(0);
    expect(document.querySelector('[role="alertdialog"]')?.textContent).toContain('without any warning');
    await click(byText(document, '[role="alertdialog"] button', 'Forget'));
    expect(bg.ofType('skillpin:pin-forget')).toEqual([{ type: 'skillpin:pin-forget', origin: ORIGIN }]);
    expect(root.querySelectorAll('[data-testid="pins"] tbody tr')).toHaveLength(1);
  });

  it('shows the key history with states; Revoke asks first, then sends key-revoke', async () => {
    // Real fingerprint shapes: the background's validator refuses anything else.
    const FP_A = `SHA256:${'a'.repeat(43)}`;
    const FP_B = `SHA256:${'b'.repeat(43)}`;
    const entry = (over: Partial<KeyHistoryEntry>): KeyHistoryEntry => ({
      origin: ORIGIN,
      fingerprint: FP_A,
      key: 'AAAA',
      firstSeen: 1,
      lastSeen: 2,
      state: 'pinned',
      revokedAt: null,
      ...over,
    });
    let history = [entry({ state: 'replaced' }), entry({ fingerprint: FP_B, state: 'pinned', firstSeen: 3 })];
    const { render, bg } = setup({
      'skillpin:key-history': () => history,
      'skillpin:key-revoke': (req) => {
        history = history.map((e) => (e.fingerprint === req.fingerprint ? { ...e, state: 'revoked', revokedAt: 5 } : e));
        return { ok: true };
      },
    });
    const root = await render();
    const rows = () => Array.from(root.querySelectorAll<HTMLElement>('[data-testid="key-history"] tbody tr'));
    expect(rows().map((r) => [r.dataset.fingerprintRow, r.querySelector('[data-testid="key-state"]')?.textContent])).toEqual([
      [FP_A, 'Replaced'],
      [FP_B, 'Pinned'],
    ]);
    await click(rows()[1]?.querySelector('[data-action="revoke-key"]') ?? null);
    expect(bg.ofType('skillpin:key-revoke')).toHaveLength(0);
    expect(document.querySelector('[role="alertdialog"]')?.textContent).toContain('never accept this key again');
    await click(byText(document, '[role="alertdialog"] button', 'Revoke key'));
    expect(bg.ofType('skillpin:key-revoke')).toEqual([{ type: 'skillpin:key-revoke', origin: ORIGIN, fingerprint: FP_B }]);
    expect(rows()[1]?.dataset.state).toBe('revoked');
    expect(rows()[1]?.querySelector('[data-action="revoke-key"]')).toBeNull();
  });

  it('lists every approval, its status in words, and withdraws one', async () => {
    const approval = approved(makeSkill({ status: 'verified-signed' })).approval.approval;
    if (!approval) throw new Error('fixture');
    let list = [{ ...approval, statusAtApproval: 'verified-signed' as const }];
    const { render, bg } = setup({
      'skillpin:approvals-list': () => list,
      'skillpin:revoke': () => {
        list = [];
        return { ok: true };
      },
    });
    const root = await render();
    const table = root.querySelector('[data-testid="approvals"]');
    expect(table?.textContent).toContain('search-docs');
    // The status in words (as the import preview says it), not the code; the site is a link as in every table.
    expect(table?.querySelector('[data-status="verified-signed"]')?.textContent).toContain("Signed by the site's key");
    expect(table?.querySelector('td > code')).toBeNull();
    expect(table?.querySelector(`a[href*="${encodeURIComponent(ORIGIN)}"]`)?.textContent).toBe(ORIGIN);
    // One row: no filter box and no count above it.
    expect(root.querySelector('[data-testid="approvals-filter"]')).toBeNull();
    expect(root.querySelector('[data-testid="approvals-count"]')).toBeNull();
    const withdraw = root.querySelector('[data-testid="approvals"] [data-action="withdraw"]');
    expect(withdraw?.textContent).toBe('Withdraw approval');
    await click(withdraw);
    expect(bg.ofType('skillpin:revoke')).toEqual([{ type: 'skillpin:revoke', origin: ORIGIN, url: approval.url }]);
    expect(root.querySelector('[data-testid="approvals"]')).toBeNull();
    expect(root.textContent).toContain('No approvals yet');
  });

  it('10,000 pins: only the first page is in the page, the count is announced, the filter reaches any row and Forget works there', async () => {
    const N = 10_000;
    const fp = (i: number) => `SHA256:${String(i).padStart(5, '0')}fingerprintXYZ${'q'.repeat(25)}`;
    let pins = Array.from({ length: N }, (_, i) => makePin({ origin: `https://site-${String(i).padStart(5, '0')}.example`, fingerprint: fp(i) }));
    pins.reverse(); // the section sorts by origin
    const { render, bg } = setup({
      ...pinHandlers(() => pins),
      'skillpin:pin-forget': (req) => {
        pins = pins.filter((p) => p.origin !== req.origin);
        return { ok: true };
      },
    });
    const root = await render();
    const rows = () => Array.from(root.querySelectorAll<HTMLElement>('[data-testid="pins"] tbody tr'));
    expect(rows()).toHaveLength(LIST_PAGE_ROWS);
    expect(rows()[0]?.dataset.origin).toBe('https://site-00000.example');
    expect(rows()[LIST_PAGE_ROWS - 1]?.dataset.origin).toBe('https://site-00099.example');
    const count = root.querySelector('[data-testid="pins-count"]');
    expect(count?.textContent).toBe('Showing 100 of 10,000 pins');
    expect(count?.getAttribute('role')).toBe('status');
    expect(root.querySelector('[data-testid="pins"]')?.getAttribute('data-total')).toBe('10000');

    // The filter box is labelled and finds a row far beyond the first page.
    const filter = root.querySelector<HTMLInputElement>('[data-testid="pins-filter"]');
    expect(filter && root.querySelector(`label[for="${filter.id}"]`)?.textContent).toBe('Filter by site or fingerprint');
    await typeInto(filter, '  SITE-09876 ');
    expect(rows().map((r) => r.dataset.origin)).toEqual(['https://site-09876.example']);
    expect(count?.textContent).toBe('Showing 1 of 1 matching pins (10,000 in all)');
    await click(root.querySelector('[data-origin="https://site-09876.example"] [data-action="forget"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Forget'));
    expect(bg.ofType('skillpin:pin-forget')).toEqual([{ type: 'skillpin:pin-forget', origin: 'https://site-09876.example' }]);
    expect(root.querySelector('[data-testid="pins"]')).toBeNull();
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('No pin matches “SITE-09876”.');

    // By fingerprint, grouped as shown on screen (spaces ignored).
    await typeInto(filter, `${fp(4321).slice(7, 11)} ${fp(4321).slice(11, 15)}`);
    expect(rows().map((r) => r.dataset.origin)).toEqual(['https://site-04321.example']);
    await typeInto(filter, '');
    expect(rows()).toHaveLength(LIST_PAGE_ROWS);
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('Showing 100 of 9,999 pins');
  });

  it('asks the background for one sorted page of pins at a time, never for the whole list', async () => {
    const pins = Array.from({ length: 1000 }, (_, i) => makePin({ origin: `https://s${String(999 - i).padStart(4, '0')}.example` }));
    const { render, bg } = setup({ ...pinHandlers(() => pins) });
    const root = await render();
    const rows = () => Array.from(root.querySelectorAll<HTMLElement>('[data-testid="pins"] tbody tr'));
    expect(rows()).toHaveLength(100);
    expect(rows()[0]?.dataset.origin).toBe('https://s0000.example');
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('Showing 100 of 1,000 pins');
    expect(bg.ofType('skillpin:pins-list')).toHaveLength(0);
    expect(bg.ofType('skillpin:pins-page').map(({ offset, limit, filter }) => ({ offset, limit, filter }))).toEqual([{ offset: 0, limit: 100, filter: '' }]);
    await click(root.querySelector('[data-action="show-more"]'));
    await typeInto(root.querySelector('[data-testid="pins-filter"]'), 's09');
    expect(
      bg
        .ofType('skillpin:pins-page')
        .slice(1)
        .map(({ offset, limit, filter }) => ({ offset, limit, filter })),
    ).toEqual([
      { offset: 100, limit: 100, filter: '' },
      { offset: 0, limit: 100, filter: 's09' },
    ]);
    expect(rows()).toHaveLength(100);
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('Showing 100 of 100 matching pins (1,000 in all)');
  });

  it('Show more adds the next page and moves focus to its first row', async () => {
    const pins = Array.from({ length: 250 }, (_, i) => makePin({ origin: `https://s${String(i).padStart(3, '0')}.example` }));
    const { render } = setup({ ...pinHandlers(() => pins) });
    const root = await render();
    const rows = () => root.querySelectorAll('[data-testid="pins"] tbody tr');
    const more = () => root.querySelector<HTMLButtonElement>('[data-testid="pins"] ~ .list-more [data-action="show-more"]');
    expect(more()?.textContent).toBe('Show 100 more');
    await click(more());
    expect(rows()).toHaveLength(200);
    expect(document.activeElement?.textContent).toBe('https://s100.example');
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('Showing 200 of 250 pins');
    expect(more()?.textContent).toBe('Show 50 more');
    await click(more());
    expect(rows()).toHaveLength(250);
    expect(document.activeElement?.textContent).toBe('https://s200.example');
    expect(more()).toBeNull();
    // A new filter starts again from the first page.
    await typeInto(root.querySelector('[data-testid="pins-filter"]'), 'example');
    expect(rows()).toHaveLength(100);
    expect(root.querySelector('[data-testid="pins-count"]')?.textContent).toBe('Showing 100 of 250 matching pins (250 in all)');
  });

  it('approvals page and filter the same way (skill name, site or URL)', async () => {
    const base = approved(makeSkill()).approval.approval;
    if (!base) throw new Error('fixture');
    const list = Array.from({ length: 150 }, (_, i) => ({
      ...base,
      name: `skill-${String(i).padStart(3, '0')}`,
      url: `${ORIGIN}/skills/s${i}/SKILL.md`,
    }));
    const { render } = setup({ 'skillpin:approvals-list': () => list });
    const root = await render();
    expect(root.querySelectorAll('[data-testid="approvals"] tbody tr')).toHaveLength(100);
    expect(root.querySelector('[data-testid="approvals-count"]')?.textContent).toBe('Showing 100 of 150 approvals');
    await typeInto(root.querySelector('[data-testid="approvals-filter"]'), 'SKILL-14');
    expect(root.querySelectorAll('[data-testid="approvals"] tbody tr')).toHaveLength(10);
    await typeInto(root.querySelector('[data-testid="approvals-filter"]'), '/s149/');
    expect(Array.from(root.querySelectorAll<HTMLElement>('[data-testid="approvals"] tbody tr')).map((r) => r.dataset.url)).toEqual([`${ORIGIN}/skills/s149/SKILL.md`]);
  });

  it('pin and approval matching rules', () => {
    const pin = makePin({ origin: 'https://Docs.example.com', fingerprint: 'SHA256:AbCdEfGh' });
    expect(pinMatches(pin, 'docs.ex')).toBe(true);
    expect(pinMatches(pin, 'cdef')).toBe(true);
    expect(pinMatches(pin, 'abcd efgh')).toBe(true);
    expect(pinMatches(pin, 'other')).toBe(false);
    expect(pinMatches(pin, ' ')).toBe(false);
    const a = approved(makeSkill()).approval.approval;
    if (!a) throw new Error('fixture');
    expect(approvalMatches(a, 'search-docs')).toBe(true);
    expect(approvalMatches(a, 'docs.example.com/skills')).toBe(true);
    expect(approvalMatches(a, 'nothing-like-it')).toBe(false);
  });

  it('shows list errors instead of an empty list', async () => {
    const { render } = setup({
      'skillpin:pins-page': () => {
        throw new Error('store closed');
      },
    });
    const root = await render();
    expect(root.textContent).toContain('store closed');
  });
});

const EMPTY_PREVIEW: ImportPreview = { ok: true, errors: [], pins: [], approvals: [], revocations: [], settings: null };
const ONE_PIN_PREVIEW: ImportPreview = { ...EMPTY_PREVIEW, pins: [{ origin: 'https://a.example', fingerprint: FP_NEW, outcome: 'add', stored: null }] };

describe('export and import', () => {
  it('a file that changes nothing says so, in a neutral box, and offers no Import', async () => {
    const preview: ImportPreview = {
      ...EMPTY_PREVIEW,
      pins: [{ origin: ORIGIN, fingerprint: FP_OLD, outcome: 'unchanged', stored: FP_OLD }],
      approvals: [
        {
          id: 'x',
          origin: ORIGIN,
          url: `${ORIGIN}/s/SKILL.md`,
          name: 'search-docs',
          statusAtApproval: 'verified',
          keyFingerprint: null,
          outcome: 'unchanged',
          needs: { unverified: false, crossOrigin: false },
        },
      ],
    };
    const { render, bg } = setup({ 'skillpin:import-preview': () => preview });
    const root = await render();
    await typeInto(root.querySelector('#import-text'), '{"format":"skillpin-trust"}');
    await click(root.querySelector('[data-action="import"]'));
    const panel = root.querySelector('[data-testid="import-preview"]');
    expect(panel?.classList.contains('result-warn')).toBe(false);
    expect(panel?.getAttribute('data-nothing')).toBe('true');
    expect(panel?.querySelector('[data-testid="import-preview-counts"]')?.textContent).toContain('This file adds nothing new');
    expect(panel?.textContent).toContain('Already here: nothing changes');
    expect(root.querySelector<HTMLButtonElement>('[data-action="import-confirm"]')?.disabled).toBe(true);
    await click(root.querySelector('[data-action="import-confirm"]'));
    expect(bg.ofType('skillpin:import')).toHaveLength(0);
  });

  it('shows what an import adds before writing, and sends only the confirmations the user gave', async () => {
    const ids = { plain: 'https://a.example https://a.example/s/SKILL.md', unverified: 'https://b.example https://cdn.example/u/SKILL.md' };
    const preview: ImportPreview = {
      ok: true,
      errors: [],
      pins: [
        { origin: 'https://a.example', fingerprint: FP_NEW, outcome: 'add', stored: null },
        { origin: ORIGIN, fingerprint: FP_NEW, outcome: 'conflict', stored: FP_OLD },
      ],
      approvals: [
        {
          id: ids.plain,
          origin: 'https://a.example',
          url: 'https://a.example/s/SKILL.md',
          name: 'plain',
          statusAtApproval: 'verified-signed',
          keyFingerprint: FP_NEW,
          outcome: 'add',
          needs: { unverified: false, crossOrigin: false },
        },
        {
          id: ids.unverified,
          origin: 'https://b.example',
          url: 'https://cdn.example/u/SKILL.md',
          name: 'loose',
          statusAtApproval: 'unverified',
          keyFingerprint: null,
          outcome: 'add',
          needs: { unverified: true, crossOrigin: true },
        },
      ],
      revocations: [{ origin: 'https://c.example', fingerprint: FP_OLD, outcome: 'add' }],
      settings: [{ field: 'paused', current: 'false', imported: 'true' }],
    };
    const { render, bg } = setup({
      'skillpin:import-preview': () => preview,
      'skillpin:import': () => ({ ok: true, pinsAdded: 1, pinsUnchanged: 0, pinConflicts: [], approvalsAdded: 1, errors: [] }),
    });
    const root = await render();
    await typeInto(root.querySelector('#import-text'), '{"format":"skillpin-trust"}');
    await click(root.querySelector('[data-action="import"]'));
    expect(bg.ofType('skillpin:import')).toHaveLength(0);
    const panel = root.querySelector('[data-testid="import-preview"]');
    expect(panel?.querySelector('[data-testid="import-preview-counts"]')?.textContent).toBe('Importing will add 1 key to pin, 2 approvals, 1 key to revoke, 1 changed setting.');
    // What will happen, before anything happened; a setting by its name in words.
    expect(panel?.querySelector(`[data-approval-id="${ids.plain}"]`)?.textContent).toContain('Will be added');
    expect(panel?.querySelector('[data-testid="import-preview-settings"] [data-field="paused"]')?.textContent).toContain('Pause checking');
    expect(panel?.querySelector('[data-testid="import-preview-pins"] [data-outcome="conflict"] [data-fingerprint]')?.getAttribute('data-fingerprint')).toBe(FP_NEW);
    expect(panel?.querySelector('[data-testid="import-preview-revocations"]')?.textContent).toContain('https://c.example');
    expect(panel?.querySelector('[data-testid="import-preview-settings"] [data-field="paused"]')?.textContent).toContain('true');
    const loose = panel?.querySelector(`[data-approval-id="${ids.unverified}"]`);
    expect(loose?.textContent).toContain('cdn.example');
    expect(panel?.querySelector(`[data-approval-id="${ids.plain}"] [data-confirm]`)).toBeNull();
    // Only the cross-host confirmation is given: it is sent, the unverified one is not.
    await click(loose?.querySelector('[data-confirm="cross-origin"]') ?? null);
    await click(root.querySelector('[data-action="import-confirm"]'));
    expect(bg.ofType('skillpin:import')).toEqual([{ type: 'skillpin:import', json: '{"format":"skillpin-trust"}', confirmUnverified: [], confirmCrossOrigin: [ids.unverified] }]);
    expect(root.querySelector('[data-testid="import-preview"]')).toBeNull();
  });

  it('a file the background refuses shows its errors and imports nothing', async () => {
    const { render, bg } = setup({
      'skillpin:import-preview': () => ({ ...EMPTY_PREVIEW, ok: false, errors: ['pins[0].key: not strict base64'] }),
      'skillpin:import': () => ({ ok: true, pinsAdded: 0, pinsUnchanged: 0, pinConflicts: [], approvalsAdded: 0, errors: [] }),
    });
    const root = await render();
    await typeInto(root.querySelector('#import-text'), '{"format":"x"}');
    await click(root.querySelector('[data-action="import"]'));
    expect(root.querySelector('#import-err')?.textContent).toContain('pins[0].key: not strict base64');
    expect(root.querySelector('[data-testid="import-preview"]')).toBeNull();
    expect(bg.ofType('skillpin:import')).toHaveLength(0);
  });

  it('exports to a download', async () => {
    const { render, downloads } = setup({ 'skillpin:backup': () => ({ json: '{"pins":[]}' }) });
    const root = await render();
    await click(root.querySelector('[data-action="export"]'));
    expect(downloads).toEqual([{ filename: 'skillpin-trust.json', text: '{"pins":[]}' }]);
  });

  it('imports and shows every pin conflict with both fingerprints', async () => {
    const result: ImportResult = {
      ok: true,
      pinsAdded: 2,
      pinsUnchanged: 1,
      pinConflicts: [{ origin: ORIGIN, stored: FP_OLD, imported: FP_NEW }],
      approvalsAdded: 3,
      errors: ['approval 4: unknown origin'],
    };
    const { render, bg } = setup({ 'skillpin:import-preview': () => ONE_PIN_PREVIEW, 'skillpin:import': () => result });
    const root = await render();
    await typeInto(root.querySelector('#import-text'), '{"pins": []}');
    await click(root.querySelector('[data-action="import"]'));
    await click(root.querySelector('[data-action="import-confirm"]'));
    expect(bg.ofType('skillpin:import')).toEqual([{ type: 'skillpin:import', json: '{"pins": []}', confirmUnverified: [], confirmCrossOrigin: [] }]);
    const box = root.querySelector('[data-testid="import-result"]');
    expect(box?.textContent).toContain('Imported: 2 keys added, 1 key already known, 3 approvals added, 0 approvals already known.');
    expect(box?.textContent).toContain('1 different key was not imported');
    const row = box?.querySelector(`[data-testid="import-conflicts"] [data-origin="${ORIGIN}"]`);
    expect(row?.querySelectorAll('[data-fingerprint]')[0]?.getAttribute('data-fingerprint')).toBe(FP_OLD);
    expect(row?.querySelectorAll('[data-fingerprint]')[1]?.getAttribute('data-fingerprint')).toBe(FP_NEW);
    expect(box?.textContent).toContain('approval 4: unknown origin');
  });

  it('does not send text that is not JSON', async () => {
    const { render, bg } = setup({ 'skillpin:import': () => ({ ok: true, pinsAdded: 0, pinsUnchanged: 0, pinConflicts: [], approvalsAdded: 0, errors: [] }) });
    const root = await render();
    await typeInto(root.querySelector('#import-text'), 'not json');
    await click(root.querySelector('[data-action="import"]'));
    expect(bg.ofType('skillpin:import')).toHaveLength(0);
    expect(root.querySelector('#import-err')?.textContent).toContain('Not valid JSON');
  });
});

describe('diagnostics', () => {
  it('shows any origin report as JSON with copy and download', async () => {
    const report = makeReport([makeSkill({ status: 'digest-mismatch' })]);
    const { render, copied, downloads } = setup({
      'skillpin:reports-list': () => [{ origin: ORIGIN, finishedAt: 2, total: 1, usable: 0, warnings: 1, keyState: 'none' }],
      'skillpin:report': () => report,
    });
    const root = await render();
    const select = root.querySelector<HTMLSelectElement>('#diag-origin');
    expect(select?.textContent).toContain(`${ORIGIN} — 1 skills, 1 warnings`);
    await act(() => {
      if (!select) return;
      select.value = ORIGIN;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    const pre = root.querySelector('[data-testid="diag-json"]');
    expect(pre?.textContent).toBe(JSON.stringify(report, null, 2));
    await click(root.querySelector('[data-action="copy-json"]'));
    expect(copied).toEqual([JSON.stringify(report, null, 2)]);
    await click(root.querySelector('[data-action="download-json"]'));
    expect(downloads[0]?.filename).toBe('skillpin-report-docs.example.com.json');
  });

  it('names report files safely', () => {
    expect(reportFilename('http://127.0.0.1:8080')).toBe('skillpin-report-127.0.0.1_8080.json');
  });

  it('says when nothing was probed yet', async () => {
    const { render } = setup({});
    const root = await render();
    expect(root.textContent).toContain('No site has been checked yet');
  });
});

describe('answers asked for early (options page start-up)', () => {
  it('each listed method sends at once, hands its answer to the first call only, and asks again later', async () => {
    let pins = [makePin()];
    const bg = fakeBackground({ ...BASE, ...pinHandlers(() => pins), 'skillpin:approvals-list': () => [] });
    const client = withEarlyAnswers(bg.client, ['pinsList', 'approvalsList']);
    expect(bg.ofType('skillpin:pins-list')).toHaveLength(1);
    expect(bg.ofType('skillpin:approvals-list')).toHaveLength(1);
    expect(bg.ofType('skillpin:settings-get')).toHaveLength(0);
    pins = [];
    expect(await client.pinsList()).toHaveLength(1);
    expect(bg.ofType('skillpin:pins-list')).toHaveLength(1);
    expect(await client.pinsList()).toHaveLength(0);
    expect(bg.ofType('skillpin:pins-list')).toHaveLength(2);
    // Methods not listed are untouched.
    await client.settingsGet();
    expect(bg.ofType('skillpin:settings-get')).toHaveLength(1);
  });

  it('the methods asked for later wait until the first early answer is in (or failed), then hand theirs over once', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const bg = fakeBackground({
      ...BASE,
      ...pinHandlers(() => [makePin()]),
      'skillpin:pins-page': async () => (await gate, { offset: 0, items: [], matching: 0, total: 0 }),
      'skillpin:approvals-list': () => [],
    });
    const client = withEarlyAnswers(bg.client, ['pinsFirstPage'], ['approvalsList', 'settingsGet']);
    await flush();
    expect(bg.ofType('skillpin:pins-page')).toHaveLength(1);
    expect(bg.ofType('skillpin:approvals-list')).toHaveLength(0);
    expect(bg.ofType('skillpin:settings-get')).toHaveLength(0);
    release();
    await client.pinsFirstPage();
    await flush();
    expect(bg.ofType('skillpin:approvals-list')).toHaveLength(1);
    expect(bg.ofType('skillpin:settings-get')).toHaveLength(1);
    expect(await client.approvalsList()).toEqual([]);
    expect(bg.ofType('skillpin:approvals-list')).toHaveLength(1);
    await client.approvalsList();
    expect(bg.ofType('skillpin:approvals-list')).toHaveLength(2);
  });

  it('an early failure reaches the first caller (the section shows it) and is never unhandled', async () => {
    const bg = fakeBackground({
      ...BASE,
      'skillpin:pins-page': () => {
        throw new Error('store closed');
      },
    });
    const early = withEarlyAnswers(bg.client, ['pinsFirstPage']);
    await flush();
    await expect(early.pinsFirstPage()).rejects.toThrow('store closed');
    const env = optionsEnv(withEarlyAnswers(bg.client, ['pinsFirstPage']));
    const root = await mount(<Options env={env} />);
    expect(root.textContent).toContain('store closed');
  });
});
