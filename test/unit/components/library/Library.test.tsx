// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { act } from 'preact/test-utils';
import type { ApprovedSkillSummary } from '../../../../lib/messages';
import { Library } from '../../../../components/library/Library';
import type { ActiveTab, LibraryEnv } from '../../../../components/library/env';
import { LIBRARY_FIRST_ROWS as FIRST_PAGE } from '../../../../components/shared/client';
import { FP_NEW, FP_OLD, HEX_A, HEX_B, approved, makeFinding, makePin, makeReport, makeSkill, withFindings } from '../../../fixtures/ui/reports';
import { findingKey } from '../../../../lib/review';
import { t } from '../../../../lib/i18n';
import { byText, changeSignal, click, fakeBackground, flush, key, mount, typeInto, type Handlers } from '../harness';

const DOCS = 'https://docs.example.com';
const TOOLS = 'https://tools.example.org:8443';
const CHAT: ActiveTab = { tabId: 9, origin: 'https://chatgpt.com', host: 'chatgpt.com', isChat: true, insert: { tabId: 9, title: 'ChatGPT', host: 'chatgpt.com', origin: 'https://chatgpt.com' } };
const NEWS: ActiveTab = { tabId: 4, origin: 'https://news.example', host: 'news.example', isChat: false, insert: null };

function summary(origin: string, name: string, extra: Partial<ApprovedSkillSummary> = {}): ApprovedSkillSummary {
  return {
    origin,
    url: `${origin}/skills/${name}/SKILL.md`,
    name,
    status: 'verified',
    usable: true,
    approvedAt: Date.UTC(2026, 0, 2),
    description: `Does ${name} things.`,
    verifiedAt: Date.UTC(2026, 0, 3, 9, 30),
    size: 2048,
    tokens: 512,
    attention: null,
    refusal: null,
    ...extra,
  };
}

/** The background's answer to a page of the list, cut as lib/background/approved-list.ts cuts it. */
function paged(all: () => ApprovedSkillSummary[]): Handlers['skillpin:approved-list'] {
  return (req) => {
    const start = req.offset ?? 0;
    return all().slice(start, req.limit === undefined ? undefined : start + req.limit);
  };
}

function setup(items: () => ApprovedSkillSummary[], handlers: Handlers = {}, tab: ActiveTab | null = CHAT) {
  const bg = fakeBackground({
    'skillpin:approved-list': paged(items),
    'skillpin:insert': () => ({ ok: true, method: 'insert-lines', message: '' }),
    'skillpin:skill-context': (req) => ({ ok: true, context: `CTX ${req.url}`, name: 'x' }),
    ...handlers,
  });
  const copied: string[] = [];
  const tabListeners = new Set<() => void>();
  let current = tab;
  const signal = changeSignal();
  const env: LibraryEnv = {
    client: bg.client,
    clipboard: async (text) => {
      copied.push(text);
      return true;
    },
    activeTab: async () => current,
    watchTabs: (l) => {
      tabListeners.add(l);
      return () => tabListeners.delete(l);
    },
    watchChanges: signal.watchChanges,
    optionsUrl: '/options.html',
  };
  const switchTab = async (next: ActiveTab | null) => {
    current = next;
    for (const l of tabListeners) await act(() => l());
    await flush();
  };
  return { bg, env, copied, signal, switchTab, render: () => mount(<Library env={env} />) };
}

const names = (root: HTMLElement) => Array.from(root.querySelectorAll('[data-skill-url] .card-title')).map((h) => h.textContent);
const search = (root: HTMLElement) => root.querySelector<HTMLInputElement>('[data-testid="library-search"]') as HTMLInputElement;
const activeName = (root: HTMLElement) => root.querySelector('[data-active="true"] .card-title')?.textContent;

afterEach(() => {
  document.body.innerHTML = '';
});

const LIST = [summary(DOCS, 'alpha'), summary(DOCS, 'beta', { description: 'Summarise release notes.' }), summary(TOOLS, 'gamma')];

describe('the library list', () => {
  it('groups every approved skill by site, with status in words, last check, size and tokens', async () => {
    const { render } = setup(() => LIST);
    const root = await render();
    const sites = Array.from(root.querySelectorAll('[data-origin]')).map((s) => s.getAttribute('data-origin'));
    expect(sites).toEqual([DOCS, TOOLS]);
    expect(root.querySelector(`[data-origin="${TOOLS}"] h2`)?.textContent).toContain('tools.example.org:8443');
    expect(names(root)).toEqual(['alpha', 'beta', 'gamma']);
    const row = root.querySelector('[data-skill-url]') as HTMLElement;
    // The popup's words for the same skill.
    expect(row.querySelector('[data-status="verified"]')?.textContent).toContain("Matches the site's checksum");
    expect(row.textContent).toContain('Last checked');
    expect(row.textContent).toMatch(/Adds ≈\s512\stokens \(2\skB\) to the chat/);
    expect(root.querySelector('[data-testid="library-count"]')?.textContent).toBe('Showing 3 of 3');
  });

  it('says what needs the user in plain words, and offers Review instead of the hand-offs', async () => {
    const items = [
      summary(DOCS, 'changed', { usable: false, status: 'content-changed', attention: 'content-changed', refusal: 'not-approved' }),
      summary(DOCS, 'keyed', { usable: false, status: 'key-changed', attention: 'key-changed', refusal: 'not-approved' }),
      summary(DOCS, 'revoked', { usable: false, status: 'key-changed', attention: 'key-revoked', refusal: 'not-approved' }),
      summary(DOCS, 'stale', { attention: 'export-outdated' }),
    ];
    const root = await setup(() => items).render();
    const text = (name: string) => byText(root, '[data-skill-url]', name)?.querySelector('[data-attention]')?.textContent;
    expect(text('changed')).toContain('Content changed since you approved it');
    expect(text('keyed')).toContain('publisher key changed');
    expect(text('revoked')).toContain('a key you revoked');
    expect(text('stale')).toContain('the copy you exported is out of date');
    const changed = byText(root, '[data-skill-url]', 'changed') as HTMLElement;
    expect(changed.querySelector('[data-action="insert"]')).toBeNull();
    expect(changed.querySelector('[data-action="copy"]')).toBeNull();
    expect(changed.querySelector('[data-action="review"]')).not.toBeNull();
  });

  it('says so when nothing is approved yet', async () => {
    const root = await setup(() => []).render();
    expect(root.textContent).toContain('You have not approved any skills yet');
  });

  it('asks for its first rows, then the rest of a long list', async () => {
    const many = Array.from({ length: FIRST_PAGE + 15 }, (_, i) => summary(DOCS, `skill-${String(i).padStart(3, '0')}`));
    const { bg, render } = setup(() => many);
    const root = await render();
    expect(bg.ofType('skillpin:approved-list').map((m) => [m.offset, m.limit])).toEqual([
      [0, FIRST_PAGE],
      [FIRST_PAGE, undefined],
    ]);
    expect(root.querySelector('[data-testid="library-count"]')?.textContent).toBe(`Showing ${FIRST_PAGE + 15} of ${FIRST_PAGE + 15}`);
  });

  it('draws a hundred rows and more on request', async () => {
    const many = Array.from({ length: 130 }, (_, i) => summary(DOCS, `s${String(i).padStart(3, '0')}`));
    const root = await setup(() => many).render();
    expect(names(root)).toHaveLength(100);
    await click(root.querySelector('[data-action="more"]'));
    expect(names(root)).toHaveLength(130);
    expect(root.querySelector('[data-action="more"]')).toBeNull();
  });
});

describe('keyboard first', () => {
  it('focuses the search box, filters by name, description and site as the user types', async () => {
    const root = await setup(() => LIST).render();
    expect(document.activeElement).toBe(search(root));
    await typeInto(search(root), 'release');
    expect(names(root)).toEqual(['beta']);
    await typeInto(search(root), 'tools.example');
    expect(names(root)).toEqual(['gamma']);
    await typeInto(search(root), 'ALPHA docs');
    expect(names(root)).toEqual(['alpha']);
    await typeInto(search(root), 'nothing-like-it');
    expect(root.textContent).toContain('No skill matches “nothing-like-it”.');
  });

  it('moves with the arrows, says the chosen row, and Enter inserts it into the active chat tab', async () => {
    const { bg, render } = setup(() => LIST);
    const root = await render();
    expect(activeName(root)).toBe('alpha');
    await key(search(root), 'ArrowDown');
    await key(search(root), 'ArrowDown');
    await key(search(root), 'ArrowDown');
    expect(activeName(root)).toBe('gamma');
    await key(search(root), 'ArrowUp');
    expect(activeName(root)).toBe('beta');
    expect(root.querySelector('[data-testid="library-active"]')?.textContent).toBe("beta, docs.example.com: Matches the site's checksum");
    await key(search(root), 'Enter');
    expect(bg.ofType('skillpin:insert')).toEqual([{ type: 'skillpin:insert', tabId: 9, chatOrigin: CHAT.origin, origin: DOCS, url: LIST[1]?.url }]);
    expect(root.querySelector('[data-testid="announcer"]')?.textContent).toContain('chatgpt.com');
  });

  it('Escape clears the search; a letter typed elsewhere goes to the search box', async () => {
    const root = await setup(() => LIST).render();
    await typeInto(search(root), 'gamma');
    await key(search(root), 'Escape');
    expect(search(root).value).toBe('');
    expect(names(root)).toHaveLength(3);
    const copy = root.querySelector<HTMLButtonElement>('[data-action="copy"]') as HTMLButtonElement;
    copy.focus();
    await key(copy, 'g');
    expect(document.activeElement).toBe(search(root));
  });

  it('Enter on a skill that needs the user opens its review; off a chat site it inserts nothing', async () => {
    const items = [summary(DOCS, 'changed', { usable: false, status: 'content-changed', attention: 'content-changed', refusal: 'not-approved' }), summary(DOCS, 'fine')];
    const { bg, render } = setup(() => items, { 'skillpin:report': () => makeReport([]), 'skillpin:skill-text': () => ({ current: null, approved: null, files: null }) }, NEWS);
    const root = await render();
    await key(search(root), 'ArrowDown');
    await key(search(root), 'Enter');
    expect(bg.ofType('skillpin:insert')).toEqual([]);
    expect(root.querySelector('[data-testid="announcer"]')?.textContent).toContain('No chat is open');
    await key(search(root), 'ArrowUp');
    await key(search(root), 'Enter');
    expect(root.querySelector('[data-testid="library-review"]')).not.toBeNull();
  });
});

describe('acting on the active tab', () => {
  it('offers Insert into chat only on a chat tab, and follows tab switches', async () => {
    const { switchTab, render } = setup(() => LIST, {}, NEWS);
    const root = await render();
    expect(root.querySelector('[data-testid="library-tab"]')?.textContent).toContain('news.example, not a chat site');
    expect(root.querySelector('[data-action="insert"]')).toBeNull();
    await switchTab(CHAT);
    expect(root.querySelector('[data-testid="library-tab"]')?.textContent).toContain('chatgpt.com, a chat site');
    expect(root.querySelectorAll('[data-action="insert"]')).toHaveLength(3);
    await switchTab(null);
    expect(root.querySelector('[data-testid="library-tab"]')?.textContent).toContain('shows no web page');
  });

  it('Copy skill context writes the block the background released', async () => {
    const { copied, render } = setup(() => LIST);
    const root = await render();
    await click(byText(root, '[data-skill-url]', 'gamma')?.querySelector('[data-action="copy"]'));
    expect(copied).toEqual([`CTX ${LIST[2]?.url}`]);
  });

  it('Insert names the tab it showed, and a refusal is said', async () => {
    const { bg, render } = setup(() => LIST, { 'skillpin:insert': () => ({ ok: false, method: 'none', message: 'The tab moved to another site.' }) });
    const root = await render();
    await click(byText(root, '[data-skill-url]', 'alpha')?.querySelector('[data-action="insert"]'));
    expect(bg.ofType('skillpin:insert')[0]).toMatchObject({ tabId: 9, chatOrigin: CHAT.origin });
    expect(root.querySelector('[data-testid="announcer"]')?.textContent).toContain('The tab moved to another site.');
  });

  it('follows a change made anywhere without a reload', async () => {
    let items = LIST;
    const { signal, render } = setup(() => items);
    const root = await render();
    items = [summary(DOCS, 'alpha', { usable: false, status: 'content-changed', attention: 'content-changed', refusal: 'not-approved' }), ...LIST.slice(1)];
    await signal.changed('reports');
    expect(byText(root, '[data-skill-url]', 'alpha')?.querySelector('.chip')?.textContent).toContain('Content changed');
    expect(byText(root, '[data-skill-url]', 'alpha')?.querySelector('[data-action="insert"]')).toBeNull();
  });
});

describe('review of a skill that needs the user', () => {
  it('shows the line diff and approves the new content again', async () => {
    const url = `${DOCS}/skills/alpha/SKILL.md`;
    const skill = makeSkill({
      url,
      name: 'alpha',
      status: 'content-changed',
      actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' },
      approval: { state: 'suspended', approval: null, suspendedBecause: 'content-changed' },
    });
    const approvals: unknown[] = [];
    const { render } = setup(() => [summary(DOCS, 'alpha', { usable: false, status: 'content-changed', attention: 'content-changed', refusal: 'not-approved' })], {
      'skillpin:report': () => makeReport([skill], { origin: DOCS }),
      'skillpin:skill-text': () => ({
        current: { text: '# alpha\nNew line\n', digestLf: HEX_B, digestRaw: HEX_B, size: 18 },
        approved: { text: '# alpha\nOld line\n', digestLf: HEX_A, digestRaw: HEX_A, size: 18 },
        files: null,
      }),
      'skillpin:approve': (req) => {
        approvals.push(req);
        return { ok: true };
      },
    });
    const root = await render();
    await click(root.querySelector('[data-action="review"]'));
    expect(root.querySelector('[data-testid="diff-summary"]')?.textContent).toContain('1 line added');
    await click(root.querySelector('[data-action="approve"]'));
    expect(approvals).toEqual([expect.objectContaining({ origin: DOCS, url, digestLf: HEX_B })]);
    await click(root.querySelector('[data-action="back"]'));
    expect(document.activeElement).toBe(search(root));
  });

  it('shows the key-change banner for a new publisher key', async () => {
    const report = makeReport([makeSkill({ url: `${DOCS}/skills/keyed/SKILL.md`, status: 'key-changed' })], {
      origin: DOCS,
      key: { state: 'changed', pinned: makePin({ fingerprint: FP_OLD }), offered: { key: 'BBBB', fingerprint: FP_NEW, source: 'index' }, conflicting: null },
    });
    const { render } = setup(() => [summary(DOCS, 'keyed', { usable: false, status: 'key-changed', attention: 'key-changed', refusal: 'not-approved' })], {
      'skillpin:report': () => report,
      'skillpin:skill-text': () => ({ current: null, approved: null, files: null }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="review"]'));
    expect(root.querySelector('.banner')?.textContent).toContain(FP_NEW.slice(0, 12));
  });
});

describe('a skill whose findings are not all confirmed', () => {
  it('says "Needs your confirmation" with Confirm, which opens the one confirmation and sends confirm-findings', async () => {
    const url = `${DOCS}/skills/runner/SKILL.md`;
    const load = makeFinding({ kind: 'load-command', severity: 'acts', match: '!`echo hi`' });
    const skill = approved(withFindings(makeSkill({ url }), [load]));
    const items = [summary(DOCS, 'runner', { attention: 'needs-confirmation' })];
    const { bg, render } = setup(() => items, { 'skillpin:report': () => makeReport([skill], { origin: DOCS }), 'skillpin:confirm-findings': () => ({ ok: true }) });
    const root = await render();
    const row = root.querySelector(`[data-skill-url="${url}"]`) as HTMLElement;
    expect(row.querySelector('[data-attention]')?.textContent).toContain(t('library_status_needs_confirmation'));
    expect(row.querySelector('.chip')?.className).toContain('chip-bad');
    await click(row.querySelector('[data-action="confirm-findings"]'));
    const dialog = document.querySelector('[role="alertdialog"]') as HTMLElement;
    expect(dialog.querySelector('[data-kind="load-command"]')?.textContent).toContain(t('finding_load_command'));
    await click(byText(dialog, 'button', t('confirm_findings_allow_again')));
    expect(bg.ofType('skillpin:confirm-findings')).toEqual([{ type: 'skillpin:confirm-findings', origin: DOCS, url, digestLf: HEX_A, confirmFindings: [findingKey(load)] }]);
  });
});
