// @vitest-environment happy-dom
// Which origin the popup shows (resolveTarget), whether it is a chat site, and which chat tab a hand-off goes to.
import { describe, expect, it } from 'vitest';
import { chatSiteCheck, findChatTab, resolveTarget, withChatCheck, type TabInfo, type TabsLike } from '../../../../components/popup/target';
import { httpOrigin } from '../../../../lib/origin';
import { setMessageSource } from '../../../../lib/i18n';

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
  it("is true for known chat hosts and for the exact origins of the user's chat sites", () => {
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
  it("finds tabs of the user's chat sites by exact origin, port included", async () => {
    const check = chatSiteCheck(isChat, ['http://localhost:3000', 'https://chat.internal.example']);
    const list = [
      { id: 1, url: 'http://localhost:8080/', title: 'Other app', lastAccessed: 50 },
      { id: 2, url: 'http://localhost:3000/c/42', title: 'Local chat', lastAccessed: 10 },
      { id: 3, url: 'https://docs.example.com/', lastAccessed: 60 },
    ];
    expect(await findChatTab(tabs(list), check)).toEqual({ tabId: 2, title: 'Local chat', host: 'localhost:3000', origin: 'http://localhost:3000' });
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
