// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { ALL_STATUSES, isApprovable, type OriginReport, type SkillStatus } from '../../../../lib/types';
import type { ApprovedSkillSummary } from '../../../../lib/messages';
import { Popup } from '../../../../components/popup/Popup';
import type { ChatTab, PopupTarget } from '../../../../components/popup/target';
import { FP_NEW, FP_OLD, HEX_A, HEX_B, ORIGIN, approved, makePin, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { byText, click, fakeBackground, flush, key, mount, popupEnv, type Handlers } from '../harness';
import { loadSkillDetails } from '../../../../components/popup/details-loader';

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };

function setup(handlers: Handlers, opts: { chatTab?: ChatTab | null; target?: PopupTarget | null } = {}) {
  const bg = fakeBackground(handlers);
  const copied: string[] = [];
  const env = popupEnv(bg.client, {
    clipboard: async (text) => {
      copied.push(text);
      return true;
    },
    findChatTab: async () => opts.chatTab ?? null,
  });
  const target = opts.target === undefined ? TARGET : opts.target;
  return { bg, env, copied, render: () => mount(<Popup env={env} target={target} />) };
}

function withReport(report: OriginReport, extra: Handlers = {}): Handlers {
  return { 'skillpin:report': () => report, 'skillpin:probe': () => report, ...extra };
}

afterEach(() => {
  document.body.innerHTML = '';
});

// The details view is a chunk of its own, loaded on first use: loaded once here so that each
// test sees it on the first click, as the popup does once its list is on screen (preloaded).
beforeAll(async () => {
  await loadSkillDetails();
});

const LABELS: Record<SkillStatus, string> = {
  'verified-signed': "Signed by the site's key",
  verified: "Matches the site's checksum",
  unverified: 'Not verified (no checksum)',
  'digest-mismatch': "Content doesn't match",
  'sources-disagree': 'Sources disagree',
  'bad-signature': 'Bad signature',
  'key-changed': 'Publisher key changed',
  'content-changed': 'Content changed since approval',
  'fetch-failed': "Couldn't download",
  'too-large': 'Too large',
  invalid: 'Invalid listing',
  unsupported: 'Unsupported format',
};

describe('status chips', () => {
  for (const status of ALL_STATUSES) {
    it(`shows ${status} in plain words with the exact code on hover`, async () => {
      const skill = makeSkill({ status, statusCode: `code-for-${status}` });
      const { render } = setup(withReport(makeReport([skill])));
      const root = await render();
      const chip = root.querySelector<HTMLElement>('.chip');
      expect(chip?.dataset.status).toBe(status);
      expect(chip?.textContent).toContain(LABELS[status]);
      const codes = `${status} (code-for-${status})`;
      // A verified status says what verification proves, never that the skill is safe.
      if (status === 'verified-signed' || status === 'verified') {
        expect(chip?.getAttribute('title')).toContain(`[${codes}]`);
        expect(chip?.getAttribute('title')).toContain('not what the skill makes an agent do');
        expect(chip?.textContent).not.toContain('✓');
      } else expect(chip?.getAttribute('title')).toBe(codes);
    });
  }
});

describe('the kept report painted before the background answers (env.keptReport)', () => {
  /** The background's answer waits for `release`; the kept copy says the skill verified, the answer that its content changed. */
  function withKept(answer: () => OriginReport) {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { env, bg } = setup({
      'skillpin:report': async () => (await gate, answer()),
      'skillpin:probe': () => answer(),
      'skillpin:approve': () => ({ ok: true }),
    });
    let left = true;
    env.keptReport = () => {
      const out = left ? makeReport([makeSkill({ status: 'verified' })]) : undefined;
      left = false;
      return out;
    };
    return { bg, release, render: () => mount(<Popup env={env} target={TARGET} />) };
  }
  const site = (root: HTMLElement) => root.querySelector<HTMLElement>('section.site');

  it('is painted inert with every action disabled, nothing on it is acted on, and the answer replaces it', async () => {
    const { render, bg, release } = withKept(() => makeReport([makeSkill({ status: 'digest-mismatch' })]));
    const root = await render();
    expect(root.querySelectorAll('[data-skill-url]')).toHaveLength(1);
    expect(site(root)?.dataset.kept).toBe('true');
    expect(site(root)?.getAttribute('aria-busy')).toBe('true');
    expect((site(root) as HTMLElement & { inert?: boolean }).inert).toBe(true);
    const approve = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(approve?.disabled).toBe(true);
    await click(approve);
    await click(root.querySelector('[data-action="details"]'));
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
    expect(root.querySelector('[data-testid="details"]')).toBeNull();
    // One request: the view's first load is the answer the popup asked for.
    expect(bg.ofType('skillpin:report')).toHaveLength(1);
    release();
    await flush();
    expect(site(root)?.dataset.kept).toBeUndefined();
    expect(site(root)?.getAttribute('aria-busy')).toBeNull();
    expect(root.querySelector<HTMLElement>('.chip')?.dataset.status).toBe('digest-mismatch');
    expect(bg.ofType('skillpin:report')).toHaveLength(1);
    // What is acted on now is the answer: its details open.
    await click(root.querySelector('[data-action="details"]'));
    expect(root.querySelector('[data-action="back"]')).not.toBeNull();
  });

  it('an answer that failed replaces it with the failure, not the kept cards', async () => {
    const { render, release } = withKept(() => {
      throw new Error('worker gone');
    });
    const root = await render();
    expect(site(root)?.dataset.kept).toBe('true');
    release();
    await flush();
    expect(root.querySelector('[data-skill-url]')).toBeNull();
    expect(root.querySelector('[data-testid="error"]')?.textContent).toContain('worker gone');
  });

  it('a ready answer wins over the kept copy', async () => {
    const { env, bg } = setup(withReport(makeReport([makeSkill({ status: 'content-changed' })])));
    env.readyReport = () => makeReport([makeSkill({ status: 'content-changed' })]);
    const kept: string[] = [];
    env.keptReport = (o) => {
      kept.push(o);
      return makeReport([makeSkill({ status: 'verified' })]);
    };
    const root = await mount(<Popup env={env} target={TARGET} />);
    expect(kept).toEqual([]);
    expect(site(root)?.dataset.kept).toBeUndefined();
    expect(root.querySelector<HTMLElement>('.chip')?.dataset.status).toBe('content-changed');
    expect(bg.ofType('skillpin:report')).toHaveLength(0);
  });
});

describe('report fetched before the view is drawn (env.readyReport)', () => {
  function withEarly(early: OriginReport | null | undefined, handlers: Handlers) {
    const { env, bg } = setup(handlers);
    const handed: string[] = [];
    let left = true;
    env.readyReport = (origin) => {
      handed.push(origin);
      const out = left ? early : undefined;
      left = false;
      return out;
    };
    return { bg, handed, render: () => mount(<Popup env={env} target={TARGET} />) };
  }

  it('a finished report is shown at once, without asking the background again', async () => {
    const report = makeReport([makeSkill(), makeSkill({ id: 'b', name: 'second', url: `${ORIGIN}/b/SKILL.md` })]);
    const { render, bg, handed } = withEarly(report, withReport(report));
    const root = await render();
    expect(root.querySelectorAll('[data-skill-url]')).toHaveLength(2);
    expect(handed).toEqual([ORIGIN]);
    expect(bg.ofType('skillpin:report')).toHaveLength(0);
    expect(bg.ofType('skillpin:probe')).toHaveLength(0);
    // Re-check still probes; later loads ask the background.
    await click(root.querySelector('[data-action="recheck"]'));
    expect(bg.ofType('skillpin:probe')).toHaveLength(1);
  });

  it('no report yet (null) or one still probing: probes straight away', async () => {
    for (const early of [null, makeReport([], { state: 'probing' })]) {
      const { render, bg } = withEarly(early, withReport(makeReport([makeSkill()])));
      const root = await render();
      expect(bg.ofType('skillpin:report')).toHaveLength(0);
      // The probe names the popup's tab: the background applies the private-window rule to it.
      expect(bg.ofType('skillpin:probe')).toEqual([{ type: 'skillpin:probe', origin: ORIGIN, tabId: 7 }]);
      expect(root.querySelectorAll('[data-skill-url]')).toHaveLength(1);
    }
  });

  it('a popup opened for an origin (no tab) sends its probe without a tab id', async () => {
    const { render, bg } = setup(
      { 'skillpin:report': () => null, 'skillpin:probe': () => makeReport([makeSkill()]) },
      {
        target: { kind: 'origin', origin: ORIGIN, tabId: null, isChat: false },
      },
    );
    await render();
    expect(bg.ofType('skillpin:probe')).toEqual([{ type: 'skillpin:probe', origin: ORIGIN }]);
  });

  it('nothing fetched early (undefined): loads as before', async () => {
    const { render, bg } = withEarly(undefined, withReport(makeReport([makeSkill()])));
    const root = await render();
    expect(bg.ofType('skillpin:report')).toHaveLength(1);
    expect(bg.ofType('skillpin:probe')).toHaveLength(0);
    expect(root.querySelectorAll('[data-skill-url]')).toHaveLength(1);
  });
});

describe('skill list', () => {
  it('shows name, description, version, license, sources, size, tokens and the artifact host', async () => {
    const skill = makeSkill({ crossOrigin: true, artifactHost: 'cdn.other.example', advisory: [{ code: 'html-comment', message: 'HTML comment' }] });
    const { render } = setup(withReport(makeReport([skill])));
    const root = await render();
    const card = root.querySelector('.card');
    const text = card?.textContent ?? '';
    // The size shown is of what Copy and Insert hand on (the whole skill-context block), not of the SKILL.md alone.
    for (const part of ['search-docs', 'Search the documentation', 'v1.2.0', 'MIT', 'llms.txt + skills index', 'Adds ≈\u00a0409\u00a0tokens (1.6\u00a0kB) to the chat']) {
      expect(text).toContain(part);
    }
    expect(root.querySelector('[data-testid="artifact-host"]')?.textContent).toContain('cdn.other.example');
    expect(text).toContain('Content flags: 1');
  });

  it('asks for a probe and shows loading when no report exists yet', async () => {
    let resolveProbe: (r: OriginReport) => void = () => undefined;
    const probe = new Promise<OriginReport>((r) => (resolveProbe = r));
    const { render, bg } = setup({ 'skillpin:report': () => null, 'skillpin:probe': () => probe });
    const root = await render();
    expect(root.querySelector('[data-testid="loading"]')?.textContent).toContain(`Looking for skills on ${ORIGIN}`);
    expect(bg.ofType('skillpin:probe')).toHaveLength(1);
    resolveProbe(makeReport());
    await flush();
    expect(root.querySelector('.card')).not.toBeNull();
  });

  it('probes when the stored report is still probing', async () => {
    const { render, bg } = setup({ 'skillpin:report': () => makeReport([], { state: 'probing' }), 'skillpin:probe': () => makeReport() });
    const root = await render();
    expect(bg.ofType('skillpin:probe')).toHaveLength(1);
    expect(root.querySelectorAll('.card')).toHaveLength(1);
  });

  it('says when the site publishes nothing, and lists document problems', async () => {
    const report = makeReport([], { publishes: true, diagnostics: [{ code: 'index-invalid-json', level: 'error', message: 'Index is not JSON' }] });
    const { render } = setup(withReport(report));
    const root = await render();
    const empty = root.querySelector('[data-testid="empty"]');
    expect(empty?.textContent).toContain('list no skills');
    expect(empty?.textContent).toContain('index-invalid-json');
  });

  it('explains a skipped origin', async () => {
    const { render } = setup(withReport(makeReport([], { state: 'skipped', skippedBecause: 'paused' })));
    const root = await render();
    expect(root.querySelector('[data-testid="skipped"]')?.textContent).toContain('Probing is paused');
  });

  it('a site Skillpin may not read: says so, offers to allow it, and re-checks after the browser grants it', async () => {
    const blocked = makeReport([], { state: 'skipped', skippedBecause: 'no-site-access', publishes: false });
    let granted = false;
    const asked: string[][] = [];
    const { bg, env } = setup({ 'skillpin:report': () => blocked, 'skillpin:probe': () => (granted ? makeReport([makeSkill()]) : blocked) });
    env.requestAccess = async (patterns) => {
      asked.push(patterns);
      granted = patterns.length === 1;
      return granted;
    };
    const root = await mount(<Popup env={env} target={TARGET} />);
    const skipped = root.querySelector('[data-testid="skipped"]');
    expect(skipped?.textContent).toContain("Skillpin can't read this site");
    expect(skipped?.textContent).not.toContain('publishes no skills');
    await click(root.querySelector('[data-action="allow-site"]'));
    expect(asked).toEqual([['https://docs.example.com/*']]);
    expect(bg.ofType('skillpin:probe')).toHaveLength(1);
    expect(root.querySelectorAll('[data-skill-id]')).toHaveLength(1);
  });

  it('"Allow on all sites" asks for every site; a refusal changes nothing and says so', async () => {
    const blocked = makeReport([], { state: 'skipped', skippedBecause: 'no-site-access' });
    const asked: string[][] = [];
    const { bg, env } = setup(withReport(blocked));
    env.requestAccess = async (patterns) => {
      asked.push(patterns);
      return false;
    };
    const root = await mount(<Popup env={env} target={TARGET} />);
    await click(root.querySelector('[data-action="allow-all"]'));
    expect(asked).toEqual([['http://*/*', 'https://*/*']]);
    expect(bg.ofType('skillpin:probe')).toHaveLength(0);
    expect(document.body.textContent).toContain('did not grant access');
  });

  it("waiting for the organisation's settings: says so and asks again until they have arrived", async () => {
    const pending = makeReport([], { state: 'skipped', skippedBecause: 'policy-pending' });
    let answers = 0;
    const { bg, render } = setup({ 'skillpin:report': () => null, 'skillpin:probe': () => (++answers < 2 ? pending : makeReport([makeSkill()])) });
    const root = await render();
    expect(root.querySelector('[data-testid="skipped"]')?.textContent).toContain("organisation's settings");
    await new Promise((r) => setTimeout(r, 2100));
    await flush();
    expect(bg.ofType('skillpin:probe').length).toBeGreaterThanOrEqual(2);
    expect(root.querySelectorAll('[data-skill-id]')).toHaveLength(1);
  });

  it('shows an error that says what happened when the background fails', async () => {
    const { render } = setup({
      'skillpin:report': () => {
        throw new Error('worker gone');
      },
    });
    const root = await render();
    expect(root.querySelector('[data-testid="error"]')?.textContent).toContain('worker gone');
  });

  it('Re-check probes again and shows the new report', async () => {
    let n = 0;
    const { render, bg } = setup({
      'skillpin:report': () => makeReport([makeSkill({ name: 'first' })]),
      'skillpin:probe': () => makeReport([makeSkill({ name: `probed-${++n}` })]),
    });
    const root = await render();
    expect(root.textContent).toContain('first');
    await click(root.querySelector('[data-action="recheck"]'));
    expect(bg.ofType('skillpin:probe')).toHaveLength(1);
    expect(root.textContent).toContain('probed-1');
    expect(root.ownerDocument.querySelector('[data-testid="announcer"]')?.textContent).toContain('Checked again');
  });

  it('explains pages that are not web pages', async () => {
    const { render } = setup({}, { target: { kind: 'unsupported', url: 'chrome://newtab/' } });
    const root = await render();
    expect(root.textContent).toContain('works on web pages');
  });
});

describe('approve', () => {
  for (const status of ALL_STATUSES.filter((s) => !isApprovable(s))) {
    it(`is disabled, with the reason, for ${status}`, async () => {
      const { render, bg } = setup(withReport(makeReport([makeSkill({ status })])));
      const root = await render();
      const button = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
      expect(button?.disabled).toBe(true);
      const reasonId = button?.getAttribute('aria-describedby');
      expect(reasonId).toBeTruthy();
      expect(root.querySelector(`[id="${reasonId}"]`)?.textContent).toBeTruthy();
      await click(button);
      expect(bg.ofType('skillpin:approve')).toHaveLength(0);
    });
  }

  it('approves a verified same-origin skill directly, with no confirmation flags', async () => {
    const { render, bg } = setup(withReport(makeReport([makeSkill({ status: 'verified' })]), { 'skillpin:approve': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(document.querySelector('[role="alertdialog"]')).toBeNull();
    expect(bg.ofType('skillpin:approve')).toEqual([
      { type: 'skillpin:approve', origin: ORIGIN, url: `${ORIGIN}/skills/search/SKILL.md`, digestLf: HEX_A, confirmUnverified: false, confirmCrossOrigin: false },
    ]);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Approved');
  });

  it('asks for confirmation for an unverified skill; cancelling sends nothing', async () => {
    const { render, bg } = setup(withReport(makeReport([makeSkill({ status: 'unverified', declared: [] })]), { 'skillpin:approve': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    const dialog = document.querySelector('[role="alertdialog"]');
    expect(dialog?.getAttribute('aria-modal')).toBe('true');
    expect(dialog?.querySelector('[data-confirm="unverified"]')).not.toBeNull();
    expect(dialog?.querySelector('[data-confirm="cross-origin"]')).toBeNull();
    expect(dialog?.contains(document.activeElement)).toBe(true);
    await click(byText(dialog as Element, 'button', 'Cancel'));
    expect(document.querySelector('[role="alertdialog"]')).toBeNull();
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
  });

  it('sends confirmUnverified only after the user confirmed', async () => {
    const { render, bg } = setup(withReport(makeReport([makeSkill({ status: 'unverified', declared: [] })]), { 'skillpin:approve': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Approve anyway'));
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ confirmUnverified: true, confirmCrossOrigin: false });
  });

  it('asks for confirmation for a cross-origin artifact and Escape cancels', async () => {
    const skill = makeSkill({ status: 'verified', crossOrigin: true, artifactHost: 'cdn.other.example' });
    const { render, bg } = setup(withReport(makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    const dialog = document.querySelector('[role="alertdialog"]');
    expect(dialog?.querySelector('[data-confirm="cross-origin"]')?.textContent).toContain('cdn.other.example');
    await key(dialog as Element, 'Escape');
    expect(document.querySelector('[role="alertdialog"]')).toBeNull();
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
    await click(root.querySelector('[data-action="approve"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Approve anyway'));
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ confirmUnverified: false, confirmCrossOrigin: true });
  });

  it('keeps Tab inside the dialog', async () => {
    const { render } = setup(withReport(makeReport([makeSkill({ status: 'unverified', declared: [] })])));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    const dialog = document.querySelector('[role="alertdialog"]') as HTMLElement;
    const buttons = Array.from(dialog.querySelectorAll('button'));
    buttons[buttons.length - 1]?.focus();
    await key(dialog, 'Tab');
    expect(document.activeElement).toBe(buttons[0]);
    await key(dialog, 'Tab', { shiftKey: true });
    expect(document.activeElement).toBe(buttons[buttons.length - 1]);
  });

  it('shows a refusal from the background', async () => {
    const { render } = setup(withReport(makeReport([makeSkill()]), { 'skillpin:approve': () => ({ ok: false, error: 'digest-changed', message: 'The content changed.' }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    const live = document.querySelector('[data-testid="announcer"]');
    expect(live?.closest('[role]')?.getAttribute('role')).toBe('alert');
    expect(live?.textContent).toContain('The content changed.');
  });
});

describe('approved skills', () => {
  it('offer Copy skill context (to the clipboard, with a confirmation) and Withdraw approval', async () => {
    const skill = approved(makeSkill());
    const { render, bg, copied } = setup(
      withReport(makeReport([skill]), {
        'skillpin:skill-context': () => ({ ok: true, context: 'CONTEXT BLOCK', name: 'search-docs' }),
        'skillpin:revoke': () => ({ ok: true }),
      }),
    );
    const root = await render();
    expect(root.querySelector('[data-action="approve"]')).toBeNull();
    await click(root.querySelector('[data-action="copy"]'));
    expect(copied).toEqual(['CONTEXT BLOCK']);
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Copied the context of “search-docs”');
    await click(root.querySelector('[data-action="withdraw"]'));
    expect(bg.ofType('skillpin:revoke')).toEqual([{ type: 'skillpin:revoke', origin: ORIGIN, url: skill.url }]);
  });

  it('offer Insert into chat only when a chat tab is open, and send its tab id', async () => {
    const skill = approved(makeSkill());
    const handlers = withReport(makeReport([skill]), { 'skillpin:insert': () => ({ ok: true, method: 'insert-text', message: 'ok' }) });
    const none = setup(handlers);
    let root = await none.render();
    expect(root.querySelector('[data-action="insert"]')).toBeNull();
    const some = setup(handlers, { chatTab: { tabId: 42, title: 'Claude', host: 'claude.ai', origin: 'https://claude.ai' } });
    root = await some.render();
    await click(root.querySelector('[data-action="insert"]'));
    expect(some.bg.ofType('skillpin:insert')).toEqual([{ type: 'skillpin:insert', tabId: 42, chatOrigin: 'https://claude.ai', origin: ORIGIN, url: skill.url }]);
    // The message names the chat the skill went to.
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Inserted “search-docs” into the chat on claude.ai');
  });

  it('with a chat tab, Insert into chat is the main action; Copy skill context keeps its one name', async () => {
    const skill = approved(makeSkill());
    const handlers = withReport(makeReport([skill]));
    let root = await setup(handlers).render();
    let copy = root.querySelector('[data-action="copy"]');
    expect(copy?.classList.contains('btn-primary')).toBe(true);
    expect(copy?.textContent).toBe('Copy skill context');
    root = await setup(handlers, { chatTab: { tabId: 42, title: 'Local chat', host: 'localhost', origin: 'http://localhost:3000' } }).render();
    const buttons = Array.from(root.querySelectorAll('[data-skill-id] .actions button')).map((b) => b.getAttribute('data-action'));
    expect(buttons).toEqual(['insert', 'copy', 'export', 'withdraw']);
    // Export for upload and Withdraw approval share a second row, apart from the first.
    expect(Array.from(root.querySelectorAll('[data-skill-id] .actions-secondary button')).map((b) => b.getAttribute('data-action'))).toEqual(['export', 'withdraw']);
    expect(root.querySelector('[data-action="insert"]')?.classList.contains('btn-primary')).toBe(true);
    copy = root.querySelector('[data-action="copy"]');
    expect(copy?.classList.contains('btn-primary')).toBe(false);
    expect(copy?.textContent).toBe('Copy skill context');
  });

  it('say so when insertion fell back to the clipboard', async () => {
    const skill = approved(makeSkill());
    const { render } = setup(withReport(makeReport([skill]), { 'skillpin:insert': () => ({ ok: false, method: 'clipboard', message: 'Composer not found.' }) }), {
      chatTab: { tabId: 3, title: 'Chat', host: 'chatgpt.com', origin: 'https://chatgpt.com' },
    });
    const root = await render();
    await click(root.querySelector('[data-action="insert"]'));
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('copied to the clipboard instead');
  });
});

describe('key-changed banner', () => {
  const changedReport = () =>
    makeReport([makeSkill({ status: 'key-changed', signature: { state: 'not-checked', message: null } })], {
      key: { state: 'changed', pinned: makePin(), offered: { key: 'BBBB', fingerprint: FP_NEW, source: 'index' }, conflicting: null },
    });

  it('shows both fingerprints side by side with first and last seen dates', async () => {
    const { render } = setup(withReport(changedReport()));
    const root = await render();
    const banner = root.querySelector('[data-testid="key-banner"]');
    expect(banner?.querySelector('[data-testid="key-old"] [data-fingerprint]')?.getAttribute('data-fingerprint')).toBe(FP_OLD);
    expect(banner?.querySelector('[data-testid="key-new"] [data-fingerprint]')?.getAttribute('data-fingerprint')).toBe(FP_NEW);
    expect(banner?.querySelector('[data-testid="first-seen"]')?.textContent).toBe('Jan 15, 2025, 10:00 AM');
    expect(banner?.querySelector('[data-testid="last-seen"]')?.textContent).toBe('Jun 1, 2025, 12:30 PM');
    expect(root.querySelector<HTMLButtonElement>('[data-action="approve"]')?.disabled).toBe(true);
  });

  it('Trust new key sends trust-key with the pinned fingerprint as expected, after confirming', async () => {
    const { render, bg } = setup(withReport(changedReport(), { 'skillpin:trust-key': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="trust-key"]'));
    expect(bg.ofType('skillpin:trust-key')).toHaveLength(0);
    await click(byText(document, '[role="alertdialog"] button', 'Trust new key'));
    expect(bg.ofType('skillpin:trust-key')).toEqual([{ type: 'skillpin:trust-key', origin: ORIGIN, expectedFingerprint: FP_OLD, newFingerprint: FP_NEW }]);
    expect(bg.ofType('skillpin:report').length).toBeGreaterThanOrEqual(2);
  });

  it('Keep blocking sends nothing and leaves the skills blocked', async () => {
    const { render, bg } = setup(withReport(changedReport()));
    const root = await render();
    await click(root.querySelector('[data-action="keep-blocking"]'));
    expect(bg.ofType('skillpin:trust-key')).toHaveLength(0);
    expect(root.querySelector('[data-testid="key-banner"]')).toBeNull();
    expect(document.querySelector('[data-testid="announcer"]')?.textContent).toContain('Still blocked');
    expect(root.querySelector<HTMLButtonElement>('[data-action="approve"]')?.disabled).toBe(true);
  });

  it('offers no trust button when the site publishes two conflicting keys or stopped signing', async () => {
    for (const state of ['conflict', 'stopped-signing'] as const) {
      const report = makeReport([makeSkill({ status: 'key-changed' })], {
        key: {
          state,
          pinned: makePin(),
          offered: state === 'conflict' ? { key: 'B', fingerprint: FP_NEW, source: 'index' } : null,
          conflicting: state === 'conflict' ? { key: 'C', fingerprint: 'SHA256:third', source: 'signing-key.pub' } : null,
        },
      });
      const { render } = setup(withReport(report));
      const root = await render();
      expect(root.querySelector('[data-testid="key-banner"]')).not.toBeNull();
      expect(root.querySelector('[data-action="trust-key"]')).toBeNull();
    }
  });
});

describe('details', () => {
  it('shows the rendered SKILL.md, raw text, digests, signature, key and advisory flags', async () => {
    const skill = makeSkill({
      status: 'verified-signed',
      statusCode: 'signature-valid',
      signature: { state: 'valid', message: 'ok' },
      advisory: [{ code: 'bidi-control', message: 'Bidi control characters', count: 2 }],
    });
    const report = makeReport([skill], { key: { state: 'match', pinned: makePin(), offered: { key: 'AAAA', fingerprint: FP_OLD, source: 'index' }, conflicting: null } });
    const text = '# Search\n\nUse <script>alert(1)</script> and [docs](https://docs.example.com/a).';
    const { render, bg } = setup(withReport(report, { 'skillpin:skill-text': () => ({ current: { text, digestLf: HEX_A, digestRaw: HEX_A, size: text.length }, approved: null }) }));
    const root = await render();
    await click(root.querySelector('[data-action="details"]'));
    expect(bg.ofType('skillpin:skill-text')).toEqual([{ type: 'skillpin:skill-text', origin: ORIGIN, url: skill.url }]);
    const rendered = root.querySelector('[data-testid="rendered"]');
    expect(rendered?.querySelector('h1')?.textContent).toBe('Search');
    expect(rendered?.querySelector('script')).toBeNull();
    expect(rendered?.querySelector('a')?.getAttribute('target')).toBe('_blank');
    // One plain verdict; the evidence is folded below it, with the code, the checksum, the signature and the key once.
    expect(root.querySelector('[data-testid="verdict"]')?.textContent).toContain('signed with the key Skillpin first saw for this site');
    expect(root.querySelector('details[data-testid="evidence"]')?.hasAttribute('open')).toBe(false);
    expect(root.querySelector('[data-testid="status-code"]')?.textContent).toBe('verified-signed');
    expect(root.textContent).toContain('signature-valid');
    expect(root.querySelectorAll(`[data-hex="${HEX_A}"]`).length).toBeGreaterThan(0);
    expect(root.querySelector('[data-testid="signature-state"]')?.textContent).toBe("Signed: the signature checks out with the site's key.");
    expect(root.querySelectorAll(`[data-fingerprint="${FP_OLD}"]`)).toHaveLength(1);
    expect(root.querySelector('[data-flag="bidi-control"]')?.textContent).toContain('2 characters that can reorder how text is displayed');
    await click(root.querySelector('[data-action="raw"]'));
    expect(root.querySelector('[data-testid="raw"]')?.textContent).toBe(text);
    await click(root.querySelector('[data-action="back"]'));
    expect(root.querySelector('.card')).not.toBeNull();
  });

  it('content-changed: shows the diff of approved and new text, then allows re-approval', async () => {
    const oldText = 'line one\nline two\nline three\n';
    const newText = 'line one\nline 2\nline three\nline four\n';
    const skill = makeSkill({
      status: 'content-changed',
      actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' },
      approval: { state: 'suspended', approval: null, suspendedBecause: 'content-changed' },
    });
    const { render, bg } = setup(
      withReport(makeReport([skill]), {
        'skillpin:skill-text': () => ({
          current: { text: newText, digestLf: HEX_B, digestRaw: HEX_B, size: newText.length },
          approved: { text: oldText, digestLf: HEX_A, digestRaw: HEX_A, size: oldText.length },
        }),
        'skillpin:approve': () => ({ ok: true }),
      }),
    );
    const root = await render();
    const listApprove = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(listApprove?.disabled).toBe(true);
    await click(root.querySelector('[data-action="details"]'));
    const adds = Array.from(root.querySelectorAll('.diff [data-kind="add"]')).map((li) => li.textContent);
    const dels = Array.from(root.querySelectorAll('.diff [data-kind="del"]')).map((li) => li.textContent);
    expect(adds).toEqual(['+added: line 2', '+added: line four']);
    expect(dels).toEqual(['−removed: line two']);
    expect(root.querySelector('[data-testid="diff-summary"]')?.textContent).toBe('2 lines added, 1 removed');
    const approve = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(approve?.disabled).toBe(false);
    await click(approve);
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ digestLf: HEX_B, confirmUnverified: false });
    expect(root.querySelector('[data-action="withdraw"]')).not.toBeNull();
  });
});

describe('on a chat site', () => {
  const items: ApprovedSkillSummary[] = [
    {
      origin: ORIGIN,
      url: `${ORIGIN}/a/SKILL.md`,
      name: 'alpha',
      status: 'verified',
      usable: true,
      approvedAt: 1,
      description: null,
      verifiedAt: 1,
      size: 10,
      tokens: 60,
      attention: null,
      refusal: null,
    },
    {
      origin: 'https://other.example',
      url: 'https://other.example/b/SKILL.md',
      name: 'beta',
      status: 'key-changed',
      usable: false,
      approvedAt: 2,
      description: null,
      verifiedAt: 2,
      size: 10,
      tokens: 60,
      attention: 'key-changed',
      refusal: 'not-approved',
    },
  ];

  it('lists approved skills from all origins, to insert here or copy', async () => {
    const { render, bg, copied } = setup(
      withReport(makeReport([]), {
        'skillpin:approved-list': () => items,
        'skillpin:insert': () => ({ ok: true, method: 'replacement-text', message: 'ok' }),
        'skillpin:skill-context': (req) => ({ ok: true, context: `CTX ${req.url}`, name: 'alpha' }),
      }),
      { target: { kind: 'origin', origin: 'https://claude.ai', tabId: 9, isChat: true } },
    );
    const root = await render();
    const panel = root.querySelector('[data-testid="chat-panel"]');
    expect(panel?.textContent).toContain('alpha');
    expect(panel?.textContent).toContain('beta');
    const beta = panel?.querySelector('[data-skill-url="https://other.example/b/SKILL.md"]');
    expect(beta?.querySelector('button')).toBeNull();
    await click(panel?.querySelector('[data-action="insert"]'));
    expect(bg.ofType('skillpin:insert')).toEqual([{ type: 'skillpin:insert', tabId: 9, chatOrigin: 'https://claude.ai', origin: ORIGIN, url: `${ORIGIN}/a/SKILL.md` }]);
    await click(panel?.querySelector('[data-action="copy"]'));
    expect(copied).toEqual([`CTX ${ORIGIN}/a/SKILL.md`]);
  });

  it('opened for a chat origin (no tab), inserts into an open tab of that origin only', async () => {
    const handlers = withReport(makeReport([]), {
      'skillpin:approved-list': () => items,
      'skillpin:insert': () => ({ ok: true, method: 'insert-text', message: 'ok' }),
    });
    const target: PopupTarget = { kind: 'origin', origin: 'http://localhost:3000', tabId: null, isChat: true };
    const same = setup(handlers, { target, chatTab: { tabId: 12, title: 'Local chat', host: 'localhost', origin: 'http://localhost:3000' } });
    let root = await same.render();
    await click(root.querySelector('[data-testid="chat-panel"] [data-action="insert"]'));
    expect(same.bg.ofType('skillpin:insert')).toEqual([{ type: 'skillpin:insert', tabId: 12, chatOrigin: 'http://localhost:3000', origin: ORIGIN, url: `${ORIGIN}/a/SKILL.md` }]);
    const other = setup(handlers, { target, chatTab: { tabId: 13, title: 'Claude', host: 'claude.ai', origin: 'https://claude.ai' } });
    root = await other.render();
    expect(root.querySelector('[data-testid="chat-panel"] [data-action="insert"]')).toBeNull();
    expect(root.querySelector('[data-testid="chat-panel"] [data-action="copy"]')).not.toBeNull();
  });

  it('says when nothing is approved yet', async () => {
    const { render } = setup(withReport(makeReport([]), { 'skillpin:approved-list': () => [] }), {
      target: { kind: 'origin', origin: 'https://chatgpt.com', tabId: 1, isChat: true },
    });
    const root = await render();
    expect(root.querySelector('[data-testid="chat-panel"]')?.textContent).toContain('No approved skills yet');
  });
});

describe('accessibility', () => {
  it('labels every button and has a live region', async () => {
    const { render } = setup(withReport(makeReport([makeSkill(), approved(makeSkill({ id: 'x', name: 'other', url: `${ORIGIN}/o/SKILL.md` }))])));
    const root = await render();
    for (const b of Array.from(root.querySelectorAll('button'))) {
      expect((b.getAttribute('aria-label') ?? b.textContent ?? '').trim()).not.toBe('');
    }
    expect(document.querySelector('[aria-live]')).not.toBeNull();
    expect(root.querySelector('a[aria-label="Open Skillpin settings"]')).not.toBeNull();
  });

  it('never sends a message the background would reject', async () => {
    const { render, bg } = setup(withReport(makeReport([makeSkill()]), { 'skillpin:approve': () => ({ ok: true }) }));
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(bg.invalid).toEqual([]);
  });
});

describe('a long list draws what is visible first', () => {
  it('the first render holds the first 12 cards; the rest follow in idle time, in order', async () => {
    const skills = Array.from({ length: 200 }, (_, i) => makeSkill({ id: `s${i}`, name: `skill-${i}`, url: `${ORIGIN}/s${i}/SKILL.md` }));
    const report = makeReport(skills);
    const { env } = setup(withReport(report));
    env.readyReport = () => report;
    document.body.innerHTML = '';
    const root = document.createElement('div');
    document.body.appendChild(root);
    const { render } = await import('preact');
    const { act } = await import('preact/test-utils');
    await act(() => {
      render(<Popup env={env} target={TARGET} />, root);
    });
    expect(root.querySelectorAll('[data-skill-id]')).toHaveLength(12);
    expect(root.querySelector('ul.cards')?.getAttribute('aria-busy')).toBe('true');
    await flush(20);
    const ids = Array.from(root.querySelectorAll<HTMLElement>('[data-skill-id]')).map((el) => el.dataset.skillId);
    expect(ids).toEqual(skills.map((s) => s.id));
    expect(root.querySelector('ul.cards')?.hasAttribute('aria-busy')).toBe(false);
  });
});
