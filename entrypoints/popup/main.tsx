import { render } from 'preact';
import { browser } from 'wxt/browser';
import { adapterForHost } from '../../lib/chat/adapters';
import { t } from '../../lib/i18n';
import type { OriginReport } from '../../lib/types';
import { createClient } from '../../components/shared/client';
import { writeClipboard } from '../../components/shared/clipboard';
import { stateChangeWatcher } from '../../components/shared/state-changes';
import { Popup } from '../../components/popup/Popup';
import type { PopupEnv } from '../../components/popup/env';
import {
  chatSiteCheck,
  findChatTab,
  resolveTarget,
  withChatCheck,
  type IsChatHost,
  type PopupTarget,
  type TabInfo,
  type TabsLike,
} from '../../components/popup/target';
import { openLibrary } from '../background/library-panel';
import '../../components/shared/base.css';
import '../../components/shared/review.css';
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
// Which origin the popup is about does not depend on the settings: it is worked out at the same
// time, and its report is asked for as soon as the origin is known, while the settings still load.
const origin: Promise<PopupTarget> = resolveTarget(location.search, tabs, () => false);
// Opened from the toolbar (no ?origin or ?tab), the popup tells the background which tab it opened
// over: Chrome's "On click" site access grants that tab's origin on the click.
const fromToolbar = !new URLSearchParams(location.search).has('origin') && !new URLSearchParams(location.search).has('tab');
const earlyReport: Promise<{ origin: string; report: OriginReport | null } | null> = origin.then((t) => {
  if (t.kind !== 'origin') return null;
  const asked = fromToolbar && t.tabId !== null ? client.reportFromToolbar(t.origin, t.tabId) : client.report(t.origin);
  return asked.then((report) => ({ origin: t.origin, report }));
});
// The early report is handed to the view once; every later report comes from the background.
let readyReport: { origin: string; report: OriginReport | null } | null = null;

const root = document.getElementById('app');
const params = new URLSearchParams(location.search);
// Opened in a tab (from the options page or a test) rather than as the toolbar popup.
if (params.has('origin') || params.has('tab')) document.body.classList.add('in-tab');

let target: PopupTarget | null = null;
// The window the popup opened over, known before any click: the side panel must be opened in the
// click's own turn, with nothing awaited first.
let windowId: number | undefined;
void browser.windows.getCurrent().then(
  (w) => {
    windowId = w.id;
  },
  () => undefined,
);
const env: PopupEnv = {
  client,
  clipboard: writeClipboard,
  findChatTab: async () =>
    findChatTab(tabs, await isChatHost, target?.kind === 'origin' ? target.tabId : null, target?.kind === 'origin' ? target.origin : null),
  requestAccess: (patterns) => browser.permissions.request({ origins: patterns }),
  watchChanges: stateChangeWatcher(browser.storage.onChanged),
  optionsUrl: '/options.html',
  openLibrary: () => openLibrary(windowId),
  readyReport: (o) => {
    const early = readyReport;
    readyReport = null;
    return early !== null && early.origin === o ? early.report : undefined;
  },
};

function draw() {
  // The page speaks the language of the catalogue the browser picked (index.html has the English fallback).
  document.documentElement.lang = t('ui_lang');
  if (root) render(<Popup env={env} target={target} />, root);
}

draw();
// The view is drawn once the target, the chat sites and the early report are all in (they load
// together); a report that failed to come is asked for again by the view itself.
void Promise.all([origin, isChatHost, earlyReport.catch(() => null)]).then(([resolved, isChat, early]) => {
  target = withChatCheck(resolved, isChat);
  readyReport = early;
  draw();
});
