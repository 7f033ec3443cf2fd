import { describe, expect, it } from 'vitest';
import { asActiveTab, findActiveTab, pickTab } from '../../../../components/library/active-tab';
import { findChatTab, type TabInfo } from '../../../../components/popup/target';

const isChat = (host: string) => host === 'chatgpt.com';

describe('the tab the library acts on', () => {
  it('is the active tab of the window in a side panel', async () => {
    const tabs = { getCurrent: async () => undefined, query: async () => [{ id: 3, url: 'https://chatgpt.com/c/1', active: true }] };
    expect(await findActiveTab(tabs, isChat)).toEqual({
      tabId: 3,
      origin: 'https://chatgpt.com',
      host: 'chatgpt.com',
      isChat: true,
      insert: { tabId: 3, title: 'chatgpt.com', host: 'chatgpt.com', origin: 'https://chatgpt.com' },
    });
  });

  it('opened in a tab of its own, is the tab of its window used last before it', () => {
    const own: TabInfo = { id: 1, url: 'chrome-extension://x/sidepanel.html', lastAccessed: 30 };
    const all: TabInfo[] = [own, { id: 2, url: 'https://a.example/', lastAccessed: 10 }, { id: 3, url: 'https://b.example/', lastAccessed: 20 }];
    expect(pickTab(own, own, all)?.id).toBe(3);
    expect(pickTab(all[1], own, all)?.id).toBe(2);
    expect(pickTab(own, own, [own])).toBeUndefined();
  });

  it('is none for a page that is not http(s), and keeps a port in the host', () => {
    expect(asActiveTab({ id: 1, url: 'about:blank' }, isChat)).toBeNull();
    expect(asActiveTab({ url: 'https://a.example/' }, isChat)).toBeNull();
    expect(asActiveTab({ id: 4, url: 'http://127.0.0.1:9000/chat' }, () => false)).toEqual({ tabId: 4, origin: 'http://127.0.0.1:9000', host: '127.0.0.1:9000', isChat: false, insert: null });
  });
});

describe('one answer for where Insert goes', () => {
  // A publisher tab in front, a chat open in another tab of another window.
  const publisher: TabInfo = { id: 5, url: 'https://docs.example/guide', title: 'Docs', active: true, lastAccessed: 50 };
  const chat: TabInfo = { id: 8, url: 'https://chatgpt.com/c/1', title: 'Planning chat', lastAccessed: 40 };
  const older: TabInfo = { id: 9, url: 'https://chatgpt.com/c/2', title: 'Old chat', lastAccessed: 10 };
  const every = [publisher, chat, older];

  it('the side panel on a publisher tab names the chat the popup inserts into', async () => {
    const panel = await findActiveTab({ getCurrent: async () => undefined, query: async (q) => (q.active ? [publisher] : every) }, isChat);
    const popup = await findChatTab({ get: async () => publisher, query: async () => every }, isChat, publisher.id ?? null, 'https://docs.example');
    expect(panel?.isChat).toBe(false);
    expect(panel?.insert).toEqual({ tabId: 8, title: 'Planning chat', host: 'chatgpt.com', origin: 'https://chatgpt.com' });
    expect(popup).toEqual(panel?.insert);
  });

  it('on a chat tab both insert into that tab, not the chat used last', async () => {
    const front: TabInfo = { ...older, active: true };
    const tabs = [publisher, chat, front];
    const panel = await findActiveTab({ getCurrent: async () => undefined, query: async (q) => (q.active ? [front] : tabs) }, isChat);
    const popup = await findChatTab({ get: async () => front, query: async () => tabs }, isChat, front.id ?? null, 'https://chatgpt.com');
    expect(panel?.insert?.tabId).toBe(9);
    expect(popup?.tabId).toBe(9);
  });

  it('with no chat open neither offers Insert', async () => {
    const panel = await findActiveTab({ getCurrent: async () => undefined, query: async (q) => (q.active ? [publisher] : [publisher]) }, isChat);
    expect(panel?.insert).toBeNull();
    expect(await findChatTab({ get: async () => publisher, query: async () => [publisher] }, isChat, 5, 'https://docs.example')).toBeNull();
  });
});
