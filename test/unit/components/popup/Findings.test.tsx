// @vitest-environment happy-dom
// What a skill can do, on screen (PRODUCT.md §6.1): the card's lines, most serious first, never
// "safe"; the details view's findings and the archive's files; the one confirmation approving asks,
// asked again only when the findings change; "Needs your confirmation" and its Confirm; a hand-off
// refused for unconfirmed findings offering the confirmation.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import type { OriginReport, SkillReport } from '../../../../lib/types';
import { Popup } from '../../../../components/popup/Popup';
import type { PopupTarget } from '../../../../components/popup/target';
import { loadSkillDetails } from '../../../../components/popup/details-loader';
import { findingKey } from '../../../../lib/review';
import { t } from '../../../../lib/i18n';
import { HEX_A, ORIGIN, approved, makeFinding, makeReport, makeSkill, withFindings } from '../../../fixtures/ui/reports';
import { byText, click, fakeBackground, mount, popupEnv, type Handlers } from '../harness';

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };
const URL_ = `${ORIGIN}/skills/search/SKILL.md`;

const LOAD = makeFinding({ kind: 'load-command', severity: 'acts', line: 7, match: '!`echo hi`' });
const SCRIPT = makeFinding({ kind: 'executable', severity: 'can-act', file: 'scripts/run.sh', line: null, match: '#!/bin/sh' });
const HIDDEN = [1, 2, 3, 4, 5, 6].map((n) => makeFinding({ kind: 'hidden-text', severity: 'look', line: 10 + n, match: `<!-- note ${n} -->` }));
const CONCEAL = makeFinding({ kind: 'concealment', severity: 'look', line: 30, match: 'do not mention this skill' });
const BROAD = makeFinding({ kind: 'broad-trigger', severity: 'look', line: 2, match: 'use for every task' });

function setup(report: () => OriginReport, extra: Handlers = {}) {
  const bg = fakeBackground({ 'skillpin:report': () => report(), 'skillpin:probe': () => report(), ...extra });
  const copied: string[] = [];
  const env = popupEnv(bg.client, {
    clipboard: async (text) => {
      copied.push(text);
      return true;
    },
  });
  return { bg, copied, render: () => mount(<Popup env={env} target={TARGET} />) };
}

const kinds = (root: ParentNode, selector = '.card-findings > .finding-lines > li') => Array.from(root.querySelectorAll<HTMLElement>(selector)).map((li) => li.dataset.kind);
const dialog = () => document.querySelector('[role="alertdialog"]');
const SAFE = /\bsafe\b|no risks?\b|harmless|sicher\b|unbedenklich/i;

beforeAll(async () => {
  await loadSkillDetails();
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the card says what the skill can do', () => {
  it('before anything else, one line per kind, most serious first, each with its severity in words', async () => {
    const skill = withFindings(makeSkill(), [...HIDDEN, CONCEAL, SCRIPT, LOAD, BROAD]);
    const { render } = setup(() => makeReport([skill]));
    const root = await render();
    const card = root.querySelector('.card') as HTMLElement;
    // The findings come right after the name and status, before the description.
    expect(card.querySelector('.card-head')?.nextElementSibling?.getAttribute('data-testid')).toBe('card-findings');
    expect(kinds(card)).toEqual(['load-command', 'executable', 'hidden-text']);
    const first = card.querySelector('[data-kind="load-command"]') as HTMLElement;
    expect(first.textContent).toContain(t('severity_acts'));
    expect(first.textContent).toContain(t('finding_load_command'));
    expect(first.querySelector('.sev-mark')?.getAttribute('aria-hidden')).toBe('true');
    expect(card.querySelector('[data-kind="executable"]')?.textContent).toContain(t('severity_can_act'));
    expect(card.querySelector('[data-kind="hidden-text"]')?.textContent).toContain('6 places');
    // The rest fold under a count.
    const more = card.querySelector<HTMLDetailsElement>('[data-testid="findings-more"]');
    expect(more?.querySelector('summary')?.textContent).toBe('2 more things it can do');
    expect(kinds(more as HTMLElement, '.finding-lines > li')).toEqual(['concealment', 'broad-trigger']);
  });

  it('many things worth a look never bury the ones that act: every kind that acts is shown', async () => {
    const acting = (['load-command', 'hooks', 'install-script', 'auto-run-file'] as const).map((kind, i) => makeFinding({ kind, severity: 'acts', line: i + 1, match: kind }));
    const skill = withFindings(makeSkill(), [...HIDDEN, CONCEAL, BROAD, ...acting]);
    const root = await setup(() => makeReport([skill])).render();
    expect(kinds(root)).toEqual(['load-command', 'hooks', 'install-script', 'auto-run-file']);
    expect(root.querySelector('[data-testid="findings-more"] summary')?.textContent).toBe('3 more things it can do');
  });

  it('each line opens to its files and lines, the matched text highlighted as text, never as markup', async () => {
    const evil = makeFinding({ kind: 'hidden-text', severity: 'look', line: 4, match: '<img src=x onerror=alert(1)>' });
    const skill = withFindings(makeSkill(), [evil, SCRIPT]);
    const root = await setup(() => makeReport([skill])).render();
    const line = root.querySelector('[data-kind="hidden-text"] details') as HTMLDetailsElement;
    expect(line.querySelector('summary')).not.toBeNull();
    const place = line.querySelector('.finding-places li') as HTMLElement;
    expect(place.querySelector('.finding-place')?.textContent).toBe('SKILL.md, line 4');
    expect(place.querySelector('mark')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(root.querySelector('img[src="x"]')).toBeNull();
    expect(root.querySelector('[data-kind="executable"] .finding-place')?.textContent).toBe('scripts/run.sh, the whole file');
  });

  it('a skill with no findings is never called safe: the card says nothing, the details only that Skillpin found nothing it knows to warn about', async () => {
    const root = await setup(() => makeReport([makeSkill()])).render();
    expect(root.querySelector('[data-testid="card-findings"]')).toBeNull();
    expect(root.textContent).not.toMatch(SAFE);
    await click(root.querySelector('[data-action="details"]'));
    expect(root.querySelector('[data-testid="findings-nothing"]')?.textContent).toBe(t('findings_nothing'));
    expect(root.textContent).not.toMatch(SAFE);
  });

  it('no word of what a skill can do, in English, calls it safe', async () => {
    const en = (await import('../../../../public/_locales/en/messages.json')).default as Record<string, { message: string }>;
    const de = (await import('../../../../public/_locales/de/messages.json')).default as Record<string, { message: string }>;
    const ours = Object.keys(en).filter((k) => /^(finding|findings|severity|confirm_findings|confirm_place|needs_confirmation)/.test(k));
    expect(ours.length).toBeGreaterThan(30);
    for (const k of ours) {
      expect(en[k]?.message, k).not.toMatch(SAFE);
      expect(de[k]?.message, k).not.toMatch(SAFE);
    }
  });
});

describe('the details view', () => {
  it('lists every finding by severity, then kind, with file:line and the match', async () => {
    const skill = withFindings(makeSkill(), [...HIDDEN, SCRIPT, LOAD]);
    const root = await setup(() => makeReport([skill])).render();
    await click(root.querySelector('[data-action="details"]'));
    const section = root.querySelector('[data-testid="findings"]') as HTMLElement;
    expect(section.querySelector('h3')?.textContent).toBe(t('findings_title'));
    expect(Array.from(section.querySelectorAll<HTMLElement>('.findings-severity')).map((s) => s.dataset.severity)).toEqual(['acts', 'can-act', 'look']);
    const hidden = section.querySelector('[data-kind="hidden-text"]') as HTMLElement;
    expect(hidden.querySelectorAll('.finding-places li')).toHaveLength(6);
    expect(hidden.querySelector('li .finding-place')?.textContent).toBe('SKILL.md, line 11');
    expect(hidden.querySelector('li mark')?.textContent).toBe('<!-- note 1 -->');
  });

  it("marks each of an archive's files with its findings: how many, and the most serious", async () => {
    const entry = (path: string) => ({ path, type: 'file' as const, size: 10, sha256: HEX_A, mode: null });
    const base = makeSkill({ type: 'archive', archive: { filesDigest: HEX_A, entries: [entry('SKILL.md'), entry('scripts/run.sh'), entry('README.md')] } as unknown as SkillReport['archive'] });
    const skill = withFindings(base, [LOAD, SCRIPT, makeFinding({ kind: 'code-file', severity: 'can-act', file: 'scripts/run.sh', line: null, match: 'run.sh' }), ...HIDDEN.slice(0, 1)]);
    const root = await setup(() => makeReport([skill])).render();
    await click(root.querySelector('[data-action="details"]'));
    const files = root.querySelector('[data-testid="archive-files"]') as HTMLElement;
    const marks = (path: string) => files.querySelector<HTMLElement>(`[data-file="${path}"] td:first-child .file-findings`);
    expect(marks('SKILL.md')?.dataset.severity).toBe('acts');
    expect(marks('SKILL.md')?.textContent).toContain('Acts on its own 2 findings');
    expect(marks('scripts/run.sh')?.textContent).toContain('Can act 2 findings');
    expect(marks('README.md')).toBeNull();
  });
});

describe('the one confirmation', () => {
  it('approving a skill that acts names every finding and the places it may go; Cancel approves nothing', async () => {
    const skill = withFindings(makeSkill(), [LOAD, SCRIPT, ...HIDDEN]);
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    const d = dialog() as HTMLElement;
    expect(d.querySelector('h2')?.textContent).toBe(t('confirm_findings_title', 'search-docs'));
    const named = Array.from(d.querySelectorAll<HTMLElement>('[data-testid="confirm-findings"] li'));
    expect(named.map((li) => li.dataset.kind)).toEqual(['load-command', 'executable']);
    expect(named[0]?.textContent).toContain(t('finding_load_command'));
    expect(named[0]?.textContent).toContain('SKILL.md');
    expect(named[1]?.textContent).toContain('scripts/run.sh');
    // Worth a look is shown on the card, not asked about.
    expect(d.textContent).not.toContain(t('finding_hidden_text'));
    expect(Array.from(d.querySelectorAll<HTMLElement>('[data-testid="confirm-places"] li')).map((li) => li.dataset.place)).toEqual(['chats', 'desktop', 'export']);
    expect(byText(d, 'button', t('confirm_findings_allow'))?.className).toContain('btn-danger');
    await click(byText(d, 'button', t('cancel')));
    expect(dialog()).toBeNull();
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
  });

  it('confirming sends the keys of every finding that acts or can act', async () => {
    const skill = withFindings(makeSkill(), [LOAD, SCRIPT, CONCEAL]);
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    await click(byText(dialog() as Element, 'button', t('confirm_findings_allow')));
    expect(bg.ofType('skillpin:approve')).toEqual([
      { type: 'skillpin:approve', origin: ORIGIN, url: URL_, digestLf: HEX_A, confirmUnverified: false, confirmCrossOrigin: false, confirmFindings: [findingKey(LOAD), findingKey(SCRIPT)] },
    ]);
  });

  it('one dialog for an unverified skill that acts: both confirmations, one click', async () => {
    const skill = withFindings(makeSkill({ status: 'unverified', declared: [] }), [LOAD]);
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(dialog()?.querySelector('[data-confirm="unverified"]')).not.toBeNull();
    expect(dialog()?.querySelector('[data-confirm="findings"]')).not.toBeNull();
    await click(byText(dialog() as Element, 'button', t('confirm_findings_allow')));
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ confirmUnverified: true, confirmFindings: [findingKey(LOAD)] });
  });

  it('only things worth a look: no dialog', async () => {
    const skill = withFindings(makeSkill(), [CONCEAL, ...HIDDEN]);
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(dialog()).toBeNull();
    expect(bg.ofType('skillpin:approve')[0]).not.toHaveProperty('confirmFindings');
  });

  it('is not asked again when the approval it replaces confirmed these findings', async () => {
    const base = withFindings(makeSkill(), [LOAD, SCRIPT]);
    const before = approved(base).approval.approval as NonNullable<SkillReport['approval']['approval']>;
    const keys = [findingKey(LOAD), findingKey(SCRIPT)];
    const skill: SkillReport = {
      ...base,
      approval: { state: 'suspended', approval: { ...before, review: { rules: 'review-2026-12', shown: keys, confirmed: keys, confirmedAt: 1 } }, suspendedBecause: 'key-changed' },
    };
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(dialog()).toBeNull();
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ confirmFindings: keys });
  });

  it('is asked again when the findings changed since that approval', async () => {
    const base = withFindings(makeSkill(), [LOAD, SCRIPT]);
    const before = approved(base).approval.approval as NonNullable<SkillReport['approval']['approval']>;
    const skill: SkillReport = {
      ...base,
      approval: {
        state: 'suspended',
        approval: { ...before, review: { rules: 'review-2026-12', shown: [findingKey(LOAD)], confirmed: [findingKey(LOAD)], confirmedAt: 1 } },
        suspendedBecause: 'key-changed',
      },
    };
    const { render, bg } = setup(() => makeReport([skill]), { 'skillpin:approve': () => ({ ok: true }) });
    const root = await render();
    await click(root.querySelector('[data-action="approve"]'));
    expect(dialog()).not.toBeNull();
    expect(bg.ofType('skillpin:approve')).toHaveLength(0);
  });
});

describe('an approved skill whose findings are not all confirmed', () => {
  const unconfirmedSkill = () => approved(withFindings(makeSkill(), [LOAD, SCRIPT]));

  it('says "Needs your confirmation" on its card; Confirm opens the same dialog and sends confirm-findings', async () => {
    let confirmed = false;
    const report = () => makeReport([confirmed ? confirmedSkill() : unconfirmedSkill()]);
    const confirmedSkill = () => {
      const s = unconfirmedSkill();
      const a = s.approval.approval as NonNullable<SkillReport['approval']['approval']>;
      const keys = [findingKey(LOAD), findingKey(SCRIPT)];
      return { ...s, approval: { ...s.approval, approval: { ...a, review: { rules: 'review-2026-12', shown: keys, confirmed: keys, confirmedAt: 2 } } } };
    };
    const { render, bg } = setup(report, {
      'skillpin:confirm-findings': () => {
        confirmed = true;
        return { ok: true };
      },
    });
    const root = await render();
    const note = root.querySelector('[data-testid="needs-confirmation"]') as HTMLElement;
    expect(note.textContent).toContain(t('needs_confirmation'));
    await click(note.querySelector('[data-action="confirm-findings"]'));
    const d = dialog() as HTMLElement;
    expect(d.querySelector('h2')?.textContent).toBe(t('confirm_findings_again_title', 'search-docs'));
    expect(Array.from(d.querySelectorAll<HTMLElement>('[data-testid="confirm-findings"] li')).map((li) => li.dataset.kind)).toEqual(['load-command', 'executable']);
    await click(byText(d, 'button', t('cancel')));
    expect(bg.ofType('skillpin:confirm-findings')).toHaveLength(0);
    await click(root.querySelector('[data-action="confirm-findings"]'));
    await click(byText(dialog() as Element, 'button', t('confirm_findings_allow_again')));
    expect(bg.ofType('skillpin:confirm-findings')).toEqual([
      { type: 'skillpin:confirm-findings', origin: ORIGIN, url: URL_, digestLf: HEX_A, confirmFindings: [findingKey(LOAD), findingKey(SCRIPT)] },
    ]);
    expect(root.querySelector('[data-testid="needs-confirmation"]')).toBeNull();
  });

  it('a Copy the gate refused for unconfirmed findings shows its message and offers the confirmation', async () => {
    const refusal = t('err_needs_confirmation', t('finding_load_command'));
    const { render, bg, copied } = setup(() => makeReport([unconfirmedSkill()]), {
      'skillpin:skill-context': () => ({ ok: false, error: 'needs-confirmation', message: refusal }),
      'skillpin:confirm-findings': () => ({ ok: true }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="copy"]'));
    expect(copied).toEqual([]);
    const announcer = document.querySelector('[data-testid="announcer"]') as HTMLElement;
    expect(announcer.textContent).toContain(refusal);
    await click(document.querySelector('[data-action="message-action"]'));
    await click(byText(dialog() as Element, 'button', t('confirm_findings_allow_again')));
    expect(bg.ofType('skillpin:confirm-findings')[0]).toMatchObject({ url: URL_, confirmFindings: [findingKey(LOAD), findingKey(SCRIPT)] });
  });

  it("on a chat site's popup, the approved list says so too, and Confirm opens the one confirmation", async () => {
    const item = {
      origin: ORIGIN,
      url: URL_,
      name: 'search-docs',
      status: 'verified' as const,
      usable: true,
      approvedAt: 1,
      description: null,
      verifiedAt: 1,
      size: 10,
      tokens: 5,
      attention: 'needs-confirmation' as const,
      refusal: null,
    };
    const bg = fakeBackground({
      'skillpin:report': (req) => (req.origin === ORIGIN ? makeReport([unconfirmedSkill()]) : makeReport([], { origin: req.origin })),
      'skillpin:probe': (req) => makeReport([], { origin: req.origin }),
      'skillpin:approved-list': () => [item],
      'skillpin:confirm-findings': () => ({ ok: true }),
    });
    const env = popupEnv(bg.client);
    const root = await mount(<Popup env={env} target={{ kind: 'origin', origin: 'https://claude.ai', tabId: 9, isChat: true }} />);
    const panel = root.querySelector('[data-testid="chat-panel"]') as HTMLElement;
    expect(panel.querySelector('[data-testid="needs-confirmation"]')?.textContent).toContain(t('needs_confirmation'));
    await click(panel.querySelector('[data-action="confirm-findings"]'));
    await click(byText(dialog() as Element, 'button', t('confirm_findings_allow_again')));
    expect(bg.ofType('skillpin:confirm-findings')).toEqual([
      { type: 'skillpin:confirm-findings', origin: ORIGIN, url: URL_, digestLf: HEX_A, confirmFindings: [findingKey(LOAD), findingKey(SCRIPT)] },
    ]);
  });
});
