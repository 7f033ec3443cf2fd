// A navigation is handled once its page has loaded (lib/background/page-events.ts): at the top
// frame's load event, or at a stopped load of the document the tab shows, with the private flag
// the browser's tab has then; never for a frame, another error, a tab that is gone.
import { describe, expect, it } from 'vitest';
import { createPageEvents, STOPPED_LOAD_ERROR, type NavEvent, type TabFacts } from '../../../lib/background/page-events';

function setup(tabs: Record<number, TabFacts>) {
  const handled: { tabId: number; url: string; incognito: boolean }[] = [];
  const trace: NavEvent[] = [];
  const pages = createPageEvents({
    getTab: async (tabId) => {
      const tab = tabs[tabId];
      if (!tab) throw new Error(`No tab with id: ${tabId}.`);
      return tab;
    },
    onNavigation: async (tabId, url, incognito) => {
      handled.push({ tabId, url, incognito });
      return null;
    },
    onEvent: (e) => trace.push(e),
  });
  return { pages, handled, trace };
}

describe('page events', () => {
  it('the top frame loaded: handled with the tab’s own private flag', async () => {
    const { pages, handled, trace } = setup({ 1: { url: 'https://a.test/x', incognito: false }, 2: { url: 'https://b.test/', incognito: true } });
    await pages.loaded({ tabId: 1, frameId: 0, url: 'https://a.test/x' });
    await pages.loaded({ tabId: 2, frameId: 0, url: 'https://b.test/' });
    expect(handled).toEqual([
      { tabId: 1, url: 'https://a.test/x', incognito: false },
      { tabId: 2, url: 'https://b.test/', incognito: true },
    ]);
    expect(trace.map((e) => e.kind)).toEqual(['load', 'load']);
  });

  it('a page that loaded is handled even when its tab has moved on since (the private flag is the tab’s)', async () => {
    const { pages, handled } = setup({ 1: { url: 'https://c.test/', incognito: true } });
    await pages.loaded({ tabId: 1, frameId: 0, url: 'https://a.test/' });
    expect(handled).toEqual([{ tabId: 1, url: 'https://a.test/', incognito: true }]);
  });

  it('frames, pages that are not http(s), and tabs the browser no longer has are not handled', async () => {
    const { pages, handled, trace } = setup({ 1: { url: 'https://a.test/', incognito: false } });
    await pages.loaded({ tabId: 1, frameId: 3, url: 'https://a.test/frame' });
    await pages.loaded({ tabId: 1, frameId: 0, url: 'about:blank' });
    await pages.loaded({ tabId: 1, frameId: 0, url: 'file:///tmp/x.html' });
    await pages.loaded({ tabId: 9, frameId: 0, url: 'https://gone.test/' });
    expect(handled).toEqual([]);
    expect(trace).toEqual([]);
  });

  it('a stopped load of the document the tab shows is handled; failed or replaced navigations are not', async () => {
    const { pages, handled, trace } = setup({ 1: { url: 'https://a.test/slow', incognito: false }, 2: { url: 'https://old.test/', incognito: false } });
    await pages.failed({ tabId: 1, frameId: 0, url: 'https://a.test/slow', error: 'net::ERR_NAME_NOT_RESOLVED' });
    await pages.failed({ tabId: 1, frameId: 2, url: 'https://a.test/slow', error: STOPPED_LOAD_ERROR });
    // Aborted before it committed: the tab still shows the page it had.
    await pages.failed({ tabId: 2, frameId: 0, url: 'https://new.test/', error: STOPPED_LOAD_ERROR });
    expect(handled).toEqual([]);
    await pages.failed({ tabId: 1, frameId: 0, url: 'https://a.test/slow', error: STOPPED_LOAD_ERROR });
    expect(handled).toEqual([{ tabId: 1, url: 'https://a.test/slow', incognito: false }]);
    expect(trace).toEqual([{ kind: 'stopped', tabId: 1, url: 'https://a.test/slow' }]);
  });

  it('a handler that throws is contained', async () => {
    const pages = createPageEvents({
      getTab: async () => ({ url: 'https://a.test/', incognito: false }),
      onNavigation: async () => {
        throw new Error('boom');
      },
    });
    await expect(pages.loaded({ tabId: 1, frameId: 0, url: 'https://a.test/' })).resolves.toBeNull();
  });
});
