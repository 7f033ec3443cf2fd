import { describe, expect, it } from 'vitest';
import { asActiveTab, findActiveTab, pickTab } from '../../../../components/library/active-tab';
import type { TabInfo } from '../../../../components/popup/target';

const isChat = (host: string) => host === 'chatgpt.com';

describe('the tab the library acts on', () => {
  it('is the active tab of the window in a side panel', async () => {
    const tabs = { getCurrent: async () => undefined, query: async () => [{ id: 3, url: 'https://chatgpt.com/c/1', active: true }] };
    expect(await findActiveTab(tabs, isChat)).toEqual({ tabId: 3, origin: 'https://chatgpt.com', host: 'chatgpt.com', isChat: true });
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
    expect(asActiveTab({ id: 4, url: 'http://127.0.0.1:9000/chat' }, () => false)).toEqual({ tabId: 4, origin: 'http://127.0.0.1:9000', host: '127.0.0.1:9000', isChat: false });
  });
});
