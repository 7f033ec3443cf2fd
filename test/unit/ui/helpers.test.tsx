// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { chatSiteCheck, findChatTab, httpOrigin, resolveTarget, withChatCheck, type TabInfo, type TabsLike } from '../../../components/popup/target';
import { render } from 'preact';
import { diffRows, SkillDiff } from '../../../components/popup/SkillDiff';
import { createClient, NoAnswerError } from '../../../components/shared/client';
import { fingerprintGroups, formatBytes, formatDate, formatDuration } from '../../../components/shared/format';
import { approveCheck, approvalNeeds } from '../../../components/popup/approve';
import { formatEntry, setMessageSource, t } from '../../../lib/i18n';
import { parseRequest } from '../../../lib/messages';
import english from '../../../public/_locales/en/messages.json';
import { ALL_STATUSES, isApprovable } from '../../../lib/types';
import { makeSkill } from '../../fixtures/ui/reports';

setMessageSource(null);

function tabs(list: TabInfo[], active?: TabInfo): TabsLike & { queries: unknown[] } {
  const queries: unknown[] = [];
  return {
    queries,
    get: async (id) => {
      const tab = list.find((t) => t.id === id);
      if (!tab) throw new Error(`No tab with id: ${id}`);
      return tab;
    },
    query: async (q) => {
      queries.push(q);
      return q.active ? (active ? [active] : []) : list;
    },
  };
}
const isChat = (h: string) => h === 'claude.ai' || h === 'chatgpt.com';

describe('resolveTarget', () => {
  const list = [
    { id: 1, url: 'https://docs.example.com/page?q=1' },
    { id: 2, url: 'https://claude.ai/new' },
    { id: 3, url: 'chrome://extensions' },
  ];
  it('?origin= wins over everything', async () => {
    expect(await resolveTarget('?origin=https%3A%2F%2Fa.example&tab=1', tabs(list), isChat)).toEqual({
      kind: 'origin',
      origin: 'https://a.example',
      tabId: null,
      isChat: false,
    });
  });
  it('?origin= of a chat site shows the chat view', async () => {
    expect(await resolveTarget('?origin=https%3A%2F%2Fclaude.ai', tabs(list), isChat)).toMatchObject({ origin: 'https://claude.ai', isChat: true, tabId: null });
  });
  it('rejects an ?origin= that is not an http(s) origin', async () => {
    for (const bad of ['javascript:alert(1)', 'https://a.example/path', 'file:///x', 'nope']) {
      expect((await resolveTarget(`?origin=${encodeURIComponent(bad)}`, tabs(list), isChat)).kind, bad).toBe('error');
    }
  });
  it('?tab= reads that tab and detects chat sites', async () => {
    expect(await resolveTarget('?tab=1', tabs(list), isChat)).toEqual({ kind: 'origin', origin: 'https://docs.example.com', tabId: 1, isChat: false });
    expect(await resolveTarget('?tab=2', tabs(list), isChat)).toEqual({ kind: 'origin', origin: 'https://claude.ai', tabId: 2, isChat: true });
    expect((await resolveTarget('?tab=3', tabs(list), isChat)).kind).toBe('unsupported');
    expect((await resolveTarget('?tab=99', tabs(list), isChat)).kind).toBe('error');
    expect((await resolveTarget('?tab=-1', tabs(list), isChat)).kind).toBe('error');
  });
  it('otherwise uses the active tab of the current window', async () => {
    const fake = tabs(list, list[0]);
    expect(await resolveTarget('', fake, isChat)).toMatchObject({ origin: 'https://docs.example.com', tabId: 1 });
    expect(fake.queries).toEqual([{ active: true, currentWindow: true }]);
    expect((await resolveTarget('', tabs(list), isChat)).kind).toBe('unsupported');
  });
});

describe('chatSiteCheck', () => {
  it('is true for known chat hosts and for the exact origins of the user\'s chat sites', () => {
    const check = chatSiteCheck(isChat, ['http://localhost:3000', 'https://chat.internal.example/', 'not an origin', 7, 'ftp://x.example']);
    expect(check('claude.ai', 'https://claude.ai')).toBe(true);
    expect(check('localhost', 'http://localhost:3000')).toBe(true);
    expect(check('chat.internal.example', 'https://chat.internal.example')).toBe(true);
    expect(check('localhost', 'http://localhost:3001')).toBe(false);
    expect(check('localhost', 'https://localhost:3000')).toBe(false);
    expect(check('sub.chat.internal.example', 'https://sub.chat.internal.example')).toBe(false);
    expect(check('x.example', 'ftp://x.example')).toBe(false);
    expect(chatSiteCheck(isChat, [])('localhost', 'http://localhost:3000')).toBe(false);
  });
  it('makes resolveTarget show the chat view on a user chat site, by ?origin= and by ?tab=', async () => {
    const check = chatSiteCheck(isChat, ['http://127.0.0.1:41234']);
    const list = [
      { id: 5, url: 'http://127.0.0.1:41234/index.html' },
      { id: 6, url: 'http://127.0.0.1:41235/' },
    ];
    expect(await resolveTarget('?origin=http%3A%2F%2F127.0.0.1%3A41234', tabs(list), check)).toEqual({ kind: 'origin', origin: 'http://127.0.0.1:41234', tabId: null, isChat: true });
    expect(await resolveTarget('?tab=5', tabs(list), check)).toEqual({ kind: 'origin', origin: 'http://127.0.0.1:41234', tabId: 5, isChat: true });
    expect(await resolveTarget('?tab=6', tabs(list), check)).toMatchObject({ isChat: false });
  });
  it('withChatCheck sets the flag later exactly as resolveTarget would have (target resolved before the settings)', async () => {
    const check = chatSiteCheck(isChat, ['http://127.0.0.1:41234', 'http://[::1]:3000']);
    const list = [
      { id: 5, url: 'http://127.0.0.1:41234/index.html' },
      { id: 6, url: 'http://127.0.0.1:41235/' },
      { id: 7, url: 'https://claude.ai/new' },
      { id: 8, url: 'http://[::1]:3000/chat' },
      { id: 9, url: 'chrome://newtab/' },
    ];
    for (const search of ['?tab=5', '?tab=6', '?tab=7', '?tab=8', '?tab=9', '?origin=http%3A%2F%2F127.0.0.1%3A41234', '?origin=https%3A%2F%2Fclaude.ai', '?origin=bad', '?tab=x']) {
      const early = await resolveTarget(search, tabs(list), () => false);
      expect(withChatCheck(early, check), search).toEqual(await resolveTarget(search, tabs(list), check));
    }
  });
});

describe('findChatTab', () => {
  it('prefers the given tab, then the most recently used chat tab', async () => {
    const list = [
      { id: 1, url: 'https://claude.ai/a', title: 'Claude', lastAccessed: 5 },
      { id: 2, url: 'https://chatgpt.com/', title: 'ChatGPT', lastAccessed: 9 },
      { id: 3, url: 'https://docs.example.com/', lastAccessed: 20 },
    ];
    expect(await findChatTab(tabs(list), isChat)).toEqual({ tabId: 2, title: 'ChatGPT', host: 'chatgpt.com', origin: 'https://chatgpt.com' });
    expect((await findChatTab(tabs(list), isChat, 1))?.tabId).toBe(1);
    expect(await findChatTab(tabs([list[2] as TabInfo]), isChat)).toBeNull();
  });
  it('after the given tab, prefers a chat tab of the given origin over a more recent one', async () => {
    const list = [
      { id: 1, url: 'https://claude.ai/a', title: 'Claude', lastAccessed: 5 },
      { id: 2, url: 'https://chatgpt.com/', title: 'ChatGPT', lastAccessed: 9 },
    ];
    expect((await findChatTab(tabs(list), isChat, null, 'https://claude.ai'))?.tabId).toBe(1);
    expect((await findChatTab(tabs(list), isChat, 2, 'https://claude.ai'))?.tabId).toBe(2);
    expect((await findChatTab(tabs(list), isChat, null, 'https://docs.example.com'))?.tabId).toBe(2);
  });
  it('finds tabs of the user\'s chat sites by exact origin, port included', async () => {
    const check = chatSiteCheck(isChat, ['http://localhost:3000', 'https://chat.internal.example']);
    const list = [
      { id: 1, url: 'http://localhost:8080/', title: 'Other app', lastAccessed: 50 },
      { id: 2, url: 'http://localhost:3000/c/42', title: 'Local chat', lastAccessed: 10 },
      { id: 3, url: 'https://docs.example.com/', lastAccessed: 60 },
    ];
    expect(await findChatTab(tabs(list), check)).toEqual({ tabId: 2, title: 'Local chat', host: 'localhost', origin: 'http://localhost:3000' });
    expect(await findChatTab(tabs(list), isChat)).toBeNull();
  });
  it('returns null when tabs cannot be listed', async () => {
    const broken: TabsLike = { get: async () => ({}), query: async () => Promise.reject(new Error('no')) };
    expect(await findChatTab(broken, isChat)).toBeNull();
  });
  it('httpOrigin accepts only http(s)', () => {
    expect(httpOrigin('https://a.example:8443/x')).toBe('https://a.example:8443');
    expect(httpOrigin('about:blank')).toBeNull();
    expect(httpOrigin(undefined)).toBeNull();
  });
});

describe('diffRows', () => {
  it('marks added and removed lines and folds long unchanged stretches', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') + '\n';
    const next = old.replace('l10\n', 'L10\n');
    const rows = diffRows(old, next, 2) ?? [];
    expect(rows.filter((r) => r.kind === 'del')).toEqual([{ kind: 'del', text: 'l10', oldNo: 11, newNo: null }]);
    expect(rows.filter((r) => r.kind === 'add')).toEqual([{ kind: 'add', text: 'L10', oldNo: null, newNo: 11 }]);
    expect(rows[0]).toEqual({ kind: 'skip', count: 8 });
    expect(rows[rows.length - 1]).toEqual({ kind: 'skip', count: 7 });
  });
  it('treats CRLF and LF line content alike for display', () => {
    const rows = diffRows('a\r\nb\r\n', 'a\r\nc\r\n') ?? [];
    expect(rows.map((r) => (r.kind === 'skip' ? 'skip' : `${r.kind}:${r.text}`))).toEqual(['same:a', 'del:b', 'add:c']);
  });
  it('handles empty texts', () => {
    expect(diffRows('', '')).toEqual([]);
    expect(diffRows('', 'x')).toEqual([{ kind: 'add', text: 'x', oldNo: null, newNo: 1 }]);
  });
  it('gives up past the edit bound (a 256 KiB change in which every line differs): both versions are shown instead', () => {
    const line = (tag: string, i: number): string => `${tag} line ${i} ${'x'.repeat(40)}`;
    const lines = Math.ceil((256 * 1024) / 50);
    const old = Array.from({ length: lines }, (_, i) => line('old', i)).join('\n');
    const next = Array.from({ length: lines }, (_, i) => line('new', i)).join('\n');
    expect(next.length).toBeGreaterThanOrEqual(256 * 1024);
    // The bound is in edits, not in time: the answer is the same on any machine.
    expect(diffRows(old, next)).toBeNull();
    // Within the bound the diff is exact.
    expect(diffRows(old, old.replace(line('old', 7), line('new', 7)))?.filter((r) => r.kind !== 'skip' && r.kind !== 'same')).toHaveLength(2);
    expect(diffRows('a\nb\nc', 'x\ny\nz', 3, 2)).toBeNull();
  });
  it('the diff view shows both versions in full when the line diff gives up', () => {
    const old = Array.from({ length: 1500 }, (_, i) => `a${i}`).join('\n');
    const next = Array.from({ length: 1500 }, (_, i) => `b${i}`).join('\n');
    const host = document.createElement('div');
    render(<SkillDiff oldText={old} newText={next} />, host);
    expect(host.querySelector('[data-testid="diff-both"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="diff-summary"]')?.textContent).toContain('both versions are shown in full');
    expect(Array.from(host.querySelectorAll('pre')).map((p) => p.textContent)).toEqual([old, next]);
    render(<SkillDiff oldText="a\nb" newText="a\nc" />, host);
    expect(host.querySelector('[data-testid="diff-both"]')).toBeNull();
    expect(host.querySelectorAll('[data-kind="add"]')).toHaveLength(1);
  });
});

describe('client', () => {
  it('sends well-formed requests and returns the answer', async () => {
    const seen: unknown[] = [];
    const client = createClient(async (m) => {
      seen.push(m);
      return { ok: true };
    });
    await client.approve({ origin: 'https://a.example', url: 'https://a.example/S.md', digestLf: 'a'.repeat(64), confirmUnverified: false, confirmCrossOrigin: true });
    await client.trustKey('https://a.example', null, 'SHA256:x');
    await client.settingsGet();
    for (const m of seen) expect(parseRequest(m), JSON.stringify(m)).not.toBeNull();
  });
  it('report may be null; other requests must be answered', async () => {
    const client = createClient(async () => undefined);
    expect(await client.report('https://a.example')).toBeNull();
    await expect(client.probe('https://a.example')).rejects.toBeInstanceOf(NoAnswerError);
  });
});

describe('approve rules', () => {
  it('allows approval exactly for approvable statuses with content', () => {
    for (const status of ALL_STATUSES) {
      expect(approveCheck(makeSkill({ status })).ok, status).toBe(isApprovable(status));
    }
    expect(approveCheck(makeSkill({ status: 'content-changed' }), true).ok).toBe(true);
    expect(approveCheck(makeSkill({ status: 'key-changed' }), true).ok).toBe(false);
    expect(approveCheck(makeSkill({ status: 'verified', actual: null })).ok).toBe(false);
    expect(approveCheck(makeSkill({ status: 'verified', url: null })).ok).toBe(false);
  });
  it('needs confirmations for unverified and cross-origin', () => {
    expect(approvalNeeds(makeSkill({ status: 'unverified', declared: [] }))).toEqual({ unverified: true, crossOrigin: false });
    expect(approvalNeeds(makeSkill({ status: 'verified', crossOrigin: true }))).toEqual({ unverified: false, crossOrigin: true });
    expect(approvalNeeds(makeSkill({ status: 'content-changed', declared: [] })).unverified).toBe(true);
    expect(approvalNeeds(makeSkill({ status: 'content-changed' })).unverified).toBe(false);
  });
});

describe('i18n', () => {
  it('fills named placeholders like the browser does', () => {
    expect(t('summary', 3, 2, 1)).toBe('3 skills · 2 usable · 1 approved');
    expect(formatEntry({ message: 'Cost $$5 for $WHO$', placeholders: { who: { content: '$1' } } }, ['me'])).toBe('Cost $5 for me');
  });
  it('uses the browser API when present and falls back to English when it answers nothing', () => {
    setMessageSource((name) => (name === 'recheck' ? 'Nochmal prüfen' : ''));
    expect(t('recheck')).toBe('Nochmal prüfen');
    expect(t('back')).toBe('Back to the list');
    setMessageSource(() => {
      throw new Error('no api');
    });
    expect(t('back')).toBe('Back to the list');
    setMessageSource(null);
  });
  it('keeps extName and extDescription, and every message has valid placeholders', () => {
    const cat = english as Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
    expect(cat.extName?.message).toBe('Skillpin');
    expect(cat.extDescription?.message).toBeTruthy();
    for (const [k, v] of Object.entries(cat)) {
      expect(k).toMatch(/^[A-Za-z0-9_]+$/);
      for (const m of v.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)) expect(v.placeholders?.[(m[1] ?? '').toLowerCase()], `${k} ${m[0]}`).toBeDefined();
    }
  });
});

describe('format', () => {
  it('formats sizes, dates, durations and fingerprints', () => {
    expect(formatBytes(1234567)).toBe('1,234,567\u00a0bytes');
    for (const n of [0, 7, 999, 1000, 1234.5, 98765432109]) expect(formatBytes(n)).toBe(`${n.toLocaleString('en-US')}\u00a0bytes`);
    expect(formatBytes(null)).toBe('unknown');
    expect(formatDate(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02 03:04 UTC');
    expect(formatDate(Number.NaN)).toBe('unknown');
    expect(formatDuration(0, 3 * 86_400_000 + 5)).toBe('3 days');
    expect(formatDuration(10, 5)).toBe('less than a day');
    expect(fingerprintGroups('SHA256:abcdefghij')).toEqual({ prefix: 'SHA256:', groups: ['abcd', 'efgh', 'ij'] });
  });
});
