import { render } from 'preact';
import { browser } from 'wxt/browser';
import { adapterForHost } from '../../lib/chat/adapters';
import { t } from '../../lib/i18n';
import { createClient } from '../../components/shared/client';
import { withEarlyAnswers } from '../../components/shared/early';
import { writeClipboard } from '../../components/shared/clipboard';
import { stateChangeWatcher } from '../../components/shared/state-changes';
import { chatSiteCheck, type TabInfo } from '../../components/popup/target';
import { findActiveTab, type TabsOfWindow } from '../../components/library/active-tab';
import type { LibraryEnv } from '../../components/library/env';
import { Library } from '../../components/library/Library';
import '../../components/shared/base.css';
import '../../components/shared/review.css';
import '../../components/library/library.css';

// The first rows are asked for now, while the page draws (components/shared/early.ts).
const client = withEarlyAnswers(
  createClient((msg) => browser.runtime.sendMessage(msg)),
  ['approvedFirstPage'],
);
const isKnownChatHost = (host: string) => adapterForHost(host) !== null;
const tabs: TabsOfWindow = {
  getCurrent: async () => (await browser.tabs.getCurrent()) as TabInfo | undefined,
  query: async (q) => (await browser.tabs.query(q)) as TabInfo[],
};

const env: LibraryEnv = {
  client,
  clipboard: writeClipboard,
  // The user's "Other chat sites" are read at each look: a settings change applies at the next tab switch.
  activeTab: async () => {
    const chatSites = await client.settingsGet().then(
      (s) => (Array.isArray(s.chatSites) ? s.chatSites : []),
      () => [],
    );
    return findActiveTab(tabs, chatSiteCheck(isKnownChatHost, chatSites));
  },
  watchTabs: (listener) => {
    const onUpdated = (_id: number, change: { url?: string; status?: string }) => {
      if (change.url !== undefined || change.status === 'complete') listener();
    };
    browser.tabs.onActivated.addListener(listener);
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.tabs.onRemoved.addListener(listener);
    browser.windows.onFocusChanged.addListener(listener);
    return () => {
      browser.tabs.onActivated.removeListener(listener);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.tabs.onRemoved.removeListener(listener);
      browser.windows.onFocusChanged.removeListener(listener);
    };
  },
  watchChanges: stateChangeWatcher(browser.storage.onChanged),
  optionsUrl: '/options.html',
};

document.documentElement.lang = t('ui_lang');
// The file's title is the manifest's sidebar title (a catalogue reference); the page shows the words.
document.title = t('library_title');
const root = document.getElementById('app');
if (root) render(<Library env={env} />, root);
