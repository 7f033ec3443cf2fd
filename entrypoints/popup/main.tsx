import { render } from 'preact';
import { browser } from 'wxt/browser';
import { adapterForHost } from '../../lib/chat/adapters';
import { createClient } from '../../components/shared/client';
import { writeClipboard } from '../../components/shared/clipboard';
import { Popup } from '../../components/popup/Popup';
import type { PopupEnv } from '../../components/popup/env';
import { chatSiteCheck, findChatTab, resolveTarget, type IsChatHost, type PopupTarget, type TabInfo, type TabsLike } from '../../components/popup/target';
import '../../components/shared/base.css';
import '../../components/popup/popup.css';

const client = createClient((msg) => browser.runtime.sendMessage(msg));
const tabs: TabsLike = {
  get: async (id) => (await browser.tabs.get(id)) as TabInfo,
  query: async (q) => (await browser.tabs.query(q)) as TabInfo[],
};
const isKnownChatHost = (host: string) => adapterForHost(host) !== null;
// Built-in chat sites plus the user's "Other chat sites", read once; without settings, the built-in ones.
const isChatHost: Promise<IsChatHost> = client.settingsGet().then(
  (s) => chatSiteCheck(isKnownChatHost, Array.isArray(s.chatSites) ? s.chatSites : []),
  () => chatSiteCheck(isKnownChatHost, []),
);

const root = document.getElementById('app');
const params = new URLSearchParams(location.search);
// Opened in a tab (from the options page or a test) rather than as the toolbar popup.
if (params.has('origin') || params.has('tab')) document.body.classList.add('in-tab');

let target: PopupTarget | null = null;
const env: PopupEnv = {
  client,
  clipboard: writeClipboard,
  findChatTab: async () =>
    findChatTab(tabs, await isChatHost, target?.kind === 'origin' ? target.tabId : null, target?.kind === 'origin' ? target.origin : null),
  optionsUrl: '/options.html',
};

function draw() {
  if (root) render(<Popup env={env} target={target} />, root);
}

draw();
void isChatHost.then((isChat) => resolveTarget(location.search, tabs, isChat)).then((resolved) => {
  target = resolved;
  draw();
});
