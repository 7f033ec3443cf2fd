// @vitest-environment happy-dom
// In the popup: an open popup follows changes made elsewhere (an import in the options
// page) without Re-check; Withdraw approval offers Undo, which restores exactly the approval
// withdrawn or says why not; the details speak German all the way in a German browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import type { ApprovedSkillSummary, ExportStatus } from '../../../../lib/messages';
import { formatEntry, setMessageSource } from '../../../../lib/i18n';
import { setUiLanguage } from '../../../../lib/i18n/format';
import type { Approval, OriginReport } from '../../../../lib/types';
import { Popup } from '../../../../components/popup/Popup';
import { loadSkillDetails } from '../../../../components/popup/details-loader';
import type { PopupTarget } from '../../../../components/popup/target';
import { FP_OLD, HEX_A, ORIGIN, approved, makePin, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { changeSignal, click, fakeBackground, mount, popupEnv, type Handlers } from '../harness';

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };

function setup(handlers: Handlers, target: PopupTarget = TARGET) {
  const bg = fakeBackground(handlers);
  const signal = changeSignal();
  const env = popupEnv(bg.client, { watchChanges: signal.watchChanges });
  return { bg, signal, render: () => mount(<Popup env={env} target={target} />) };
}

const message = () => document.querySelector('[data-testid="announcer"]')?.textContent ?? '';
const undoButton = () => document.querySelector<HTMLButtonElement>('.message [data-action="message-action"]');

beforeAll(async () => {
  await loadSkillDetails();
});

afterEach(() => {
  document.body.innerHTML = '';
  setMessageSource(null);
  setUiLanguage(() => 'en-US', 'UTC');
});

describe('the popup follows changes made elsewhere', () => {
  it('an import in the options page that adds an approval: the open popup shows it without Re-check', async () => {
    const skill = makeSkill({ status: 'verified-signed' });
    let report = makeReport([skill]);
    const { bg, signal, render } = setup({ 'skillpin:report': () => report, 'skillpin:probe': () => report });
    const root = await render();
    expect(root.querySelector('[data-testid="summary"]')?.textContent).toContain('0 approved');
    expect(root.querySelector('[data-action="approve"]')).not.toBeNull();
    // The options page imported an approval: the background stored it, probed the origin and announced a trust change.
    const withApproval = approved(skill);
    report = makeReport([withApproval], { summary: { total: 1, usable: 1, approved: 1, warnings: 0, byStatus: { 'verified-signed': 1 } } });
    await signal.changed('trust');
    expect(root.querySelector('[data-testid="summary"]')?.textContent).toContain('1 approved');
    expect(root.querySelector('[data-action="approve"]')).toBeNull();
    expect(root.querySelector('[data-action="withdraw"]')).not.toBeNull();
    // Read again, not probed again: no Re-check happened.
    expect(bg.ofType('skillpin:probe')).toHaveLength(0);
    expect(bg.ofType('skillpin:report').length).toBeGreaterThanOrEqual(2);
  });

  it('on a chat site the list of approved skills follows too', async () => {
    let items: ApprovedSkillSummary[] = [];
    const { signal, render } = setup(
      { 'skillpin:approved-list': () => items, 'skillpin:report': () => makeReport([], { origin: 'https://chatgpt.com' }), 'skillpin:probe': () => makeReport([]) },
      { kind: 'origin', origin: 'https://chatgpt.com', tabId: 3, isChat: true },
    );
    const root = await render();
    expect(root.querySelector('[data-testid="chat-panel"]')?.textContent).toContain('No approved skills yet');
    items = [
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
        tokens: 3,
        attention: null,
        refusal: null,
      },
    ];
    await signal.changed('trust');
    expect(root.querySelectorAll('[data-testid="chat-panel"] [data-skill-url]')).toHaveLength(1);
    // The chat site publishes nothing itself: its own section says nothing.
    expect(root.querySelector('#site-title')).toBeNull();
    expect(root.querySelector('[data-testid="empty"]')).toBeNull();
  });
});

describe('Withdraw approval, with Undo', () => {
  const signedApproval = (): Approval => ({
    origin: ORIGIN,
    url: `${ORIGIN}/skills/search/SKILL.md`,
    digestLf: HEX_A,
    digestRaw: HEX_A,
    keyFingerprint: FP_OLD,
    statusAtApproval: 'verified-signed',
    name: 'search-docs',
    approvedAt: Date.UTC(2025, 2, 3),
  });
  const withApproval = () => {
    const skill = makeSkill({ status: 'verified-signed' });
    return { ...skill, approval: { state: 'approved' as const, approval: signedApproval(), suspendedBecause: null } };
  };

  it('withdraws at once; Undo restores the same digest, key and date', async () => {
    let report: OriginReport = makeReport([withApproval()], { key: { state: 'match', pinned: makePin(), offered: null, conflicting: null } });
    const { bg, render } = setup({
      'skillpin:report': () => report,
      'skillpin:probe': () => report,
      'skillpin:revoke': () => {
        report = makeReport([makeSkill({ status: 'verified-signed' })]);
        return { ok: true };
      },
      'skillpin:approve': () => ({ ok: true }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="withdraw"]'));
    expect(bg.ofType('skillpin:revoke')).toHaveLength(1);
    expect(document.querySelector('[role="alertdialog"]')).toBeNull();
    expect(message()).toContain('Approval of “search-docs” withdrawn');
    expect(message()).not.toContain('uploaded');
    expect(undoButton()?.textContent).toBe('Undo');
    await click(undoButton());
    expect(bg.ofType('skillpin:approve')).toEqual([
      {
        type: 'skillpin:approve',
        origin: ORIGIN,
        url: `${ORIGIN}/skills/search/SKILL.md`,
        digestLf: HEX_A,
        confirmUnverified: false,
        confirmCrossOrigin: false,
        restore: { keyFingerprint: FP_OLD, approvedAt: Date.UTC(2025, 2, 3) },
      },
    ]);
    expect(message()).toBe('Approval of “search-docs” restored.');
    expect(undoButton()).toBeNull();
  });

  it('content that changed meanwhile is said so, not restored', async () => {
    const report = makeReport([withApproval()]);
    const { render } = setup({
      'skillpin:report': () => report,
      'skillpin:probe': () => report,
      'skillpin:revoke': () => ({ ok: true }),
      'skillpin:approve': () => ({ ok: false, error: 'digest-changed', message: 'changed' }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="withdraw"]'));
    await click(undoButton());
    expect(message()).toContain('“search-docs” changed since you withdrew its approval, so it was not approved again');
    expect(document.querySelector('[data-testid="announcer"]')?.closest('[role]')?.getAttribute('role')).toBe('alert');
  });

  it('a skill that was exported: the uploaded copy stays installed in the agent until removed there', async () => {
    const report = makeReport([withApproval()]);
    const exported: ExportStatus = { origin: ORIGIN, url: `${ORIGIN}/skills/search/SKILL.md`, digestLf: HEX_A, keyFingerprint: FP_OLD, exportedAt: 5, outOfDate: false } as ExportStatus;
    const { render } = setup({
      'skillpin:report': () => report,
      'skillpin:probe': () => report,
      'skillpin:exports-list': () => [exported],
      'skillpin:revoke': () => ({ ok: true }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="withdraw"]'));
    expect(message()).toContain('The copy you uploaded to your agent stays installed there until you remove it in the agent.');
    expect(undoButton()).not.toBeNull();
  });
});

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const german = JSON.parse(readFileSync(join(__dirname, '../../../../public/_locales/de/messages.json'), 'utf8')) as Catalogue;

describe('the details in German', () => {
  it('say the verdict, the checksums, the signature and the facts in German, with no English sentence from the engine', async () => {
    setMessageSource((name, subs) => {
      const entry = german[name];
      return entry ? formatEntry(entry, subs ?? []) : '';
    });
    setUiLanguage(() => 'de', 'UTC');
    const skill = makeSkill({
      status: 'verified-signed',
      statusCode: 'verified-signed',
      statusMessage: 'Digest matches (raw) and the signature verifies under the pinned key.',
      signature: { state: 'valid', message: `Verified under ${FP_OLD}.` },
      declared: Array.from({ length: 5 }, (_, i) => ({ source: i % 2 ? 'llms-txt' : 'index', field: i % 2 ? 'inline-sha256' : 'index-digest', hex: HEX_A }) as const),
      approval: { state: 'approved', approval: { ...(approved(makeSkill()).approval.approval as Approval), approvedAt: Date.UTC(2025, 2, 3, 14, 5) }, suspendedBecause: null },
    });
    const report = makeReport([skill], { key: { state: 'match', pinned: makePin(), offered: null, conflicting: null } });
    const text = '# Suche\n';
    const { render } = setup({
      'skillpin:report': () => report,
      'skillpin:probe': () => report,
      'skillpin:skill-text': () => ({ current: { text, digestLf: HEX_A, digestRaw: HEX_A, size: text.length }, approved: null }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="details"]'));
    const details = root.querySelector('.details');
    const shown = details?.textContent ?? '';
    expect(root.querySelector('[data-testid="verdict"]')?.textContent).toContain('Die Datei entspricht der Prüfsumme');
    // Five identical checksums: one line saying all match, one group listing where they were declared.
    expect(root.querySelector('[data-testid="digest-summary"]')?.textContent).toBe('Alle 5 von der Website angegebenen Prüfsummen stimmen mit dieser Datei überein.');
    expect(root.querySelectorAll('[data-testid="declared-digest"]')).toHaveLength(1);
    expect(root.querySelector('[data-testid="signature-state"]')?.textContent).toBe('Signiert: Die Signatur passt zum Schlüssel der Website.');
    expect(shown).toContain('Freigegeben am 03.03.2025, 14:05');
    for (const english of ['Digest matches', 'Verified under', 'Matched form', 'raw)', 'UTC', 'Approved', 'Withdraw', 'Copy skill context', 'How Skillpin', 'Checksum']) {
      expect(shown, english).not.toContain(english);
    }
  });
});

describe('All my skills', () => {
  it('opens the library from the click and closes the popup; a failure is said', async () => {
    const bg = fakeBackground({ 'skillpin:report': () => makeReport([]), 'skillpin:probe': () => makeReport([]) });
    let opened = 0;
    let closed = 0;
    const close = window.close;
    window.close = () => {
      closed++;
    };
    try {
      let fail = false;
      const env = popupEnv(bg.client, {
        openLibrary: async () => {
          opened++;
          if (fail) throw new Error('No browser window to open the panel in.');
        },
      });
      const root = await mount(<Popup env={env} target={{ kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false }} />);
      await click(root.querySelector('[data-action="library"]'));
      expect([opened, closed]).toEqual([1, 1]);
      fail = true;
      await click(root.querySelector('[data-action="library"]'));
      expect([opened, closed]).toEqual([2, 1]);
      expect(root.querySelector('[data-testid="announcer"]')?.textContent).toContain("Couldn't open the side panel");
      expect((await mount(<Popup env={popupEnv(bg.client)} target={null} />)).querySelector('[data-action="library"]')).toBeNull();
    } finally {
      window.close = close;
    }
  });
});
