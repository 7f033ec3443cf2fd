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
import { chatSiteCheck, findChatTab, resolveTarget, withChatCheck, type IsChatHost, type PopupTarget, type TabInfo, type TabsLike } from '../../components/popup/target';
import { openLibrary } from '../background/library-panel';
import { keptReportKey, keptReportOf } from '../../lib/background/kept-report';
import '../../components/shared/base.css';
import '../../components/shared/review.css';
import '../../components/popup/popup.css';

/** A report (or a request for one) about one origin. */
type ForOrigin<T> = { origin: string; report: T };
type Kept = ForOrigin<OriginReport>;
/** The first report the view starts from: the background's answer, or else its kept copy. */
interface FirstReport {
  early: ForOrigin<OriginReport | null> | null;
  kept: Kept | null;
}
/** A value held for one origin, handed over once. */
type Held<T> = { current: ForOrigin<T> | null };

/** What `slot` holds when it is about origin `o` (undefined otherwise); the slot is emptied either way. */
function take<T>(slot: Held<T>, o: string): T | undefined {
  const held = slot.current;
  slot.current = null;
  return held !== null && held.origin === o ? held.report : undefined;
}

const base = createClient((msg) => browser.runtime.sendMessage(msg));
// The report asked for as the popup starts is the answer to the view's first `report` call (a view
// painted from the kept copy asks for it): one request, not two.
const pendingReport: Held<Promise<OriginReport | null>> = { current: null };
const client: typeof base = {
  ...base,
  report: (o) => {
    const early = take(pendingReport, o);
    // An early request that failed is asked again, as a view without it would have.
    return early !== undefined ? early.catch(() => base.report(o)) : base.report(o);
  },
};
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
const earlyReport: Promise<ForOrigin<OriginReport | null> | null> = origin.then((t) => {
  if (t.kind !== 'origin') return null;
  const asked = fromToolbar && t.tabId !== null ? base.reportFromToolbar(t.origin, t.tabId) : base.report(t.origin);
  pendingReport.current = { origin: t.origin, report: asked };
  return asked.then((report) => ({ origin: t.origin, report }));
});
// The origin's last report as the background kept it (lib/background/kept-report.ts), read from
// session storage at the same time: painted inert if it comes before the answer. Not in a private
// window (nothing of one is kept, and a normal window's report is not its answer).
const currentWindow = browser.windows.getCurrent();
const privateWindow = currentWindow.then(
  (w) => w.incognito,
  () => true,
);
// The copy is read while the window is asked for (both are round trips to the browser); it is only
// used once the window is known to be a normal one.
const keptRead: Promise<Kept | null> = origin
  .then(async (t) => {
    if (t.kind !== 'origin') return null;
    const key = keptReportKey(t.origin);
    const report = keptReportOf((await browser.storage.session.get(key))[key], t.origin);
    return report ? { origin: t.origin, report } : null;
  })
  .catch(() => null);
const keptReport: Promise<Kept | null> = Promise.all([keptRead, privateWindow]).then(([kept, priv]) => (priv ? null : kept));
const readyKept: Held<OriginReport> = { current: null };
// The early report is handed to the view once; every later report comes from the background.
const readyReport: Held<OriginReport | null> = { current: null };

const root = document.getElementById('app');
// Opened in a tab (from the options page or a test) rather than as the toolbar popup.
if (!fromToolbar) document.body.classList.add('in-tab');

let target: PopupTarget | null = null;
// The window the popup opened over, known before any click: the side panel must be opened in the
// click's own turn, with nothing awaited first.
let windowId: number | undefined;
void currentWindow.then(
  (w) => {
    windowId = w.id;
  },
  () => undefined,
);
const env: PopupEnv = {
  client,
  clipboard: writeClipboard,
  findChatTab: async () => findChatTab(tabs, await isChatHost, target?.kind === 'origin' ? target.tabId : null, target?.kind === 'origin' ? target.origin : null),
  requestAccess: (patterns) => browser.permissions.request({ origins: patterns }),
  watchChanges: stateChangeWatcher(browser.storage.onChanged),
  optionsUrl: '/options.html',
  openLibrary: () => openLibrary(windowId),
  readyReport: (o) => take(readyReport, o),
  keptReport: (o) => take(readyKept, o),
};

function draw() {
  // The page speaks the language of the catalogue the browser picked (index.html has the English fallback).
  document.documentElement.lang = t('ui_lang');
  if (root) render(<Popup env={env} target={target} />, root);
}

draw();
// The view is drawn once the target, the chat sites and the early report or the kept copy are in
// (they load together), whichever of those two comes first; a report that failed to come is asked
// for again by the view itself.
const answered: Promise<FirstReport> = earlyReport.then(
  (early) => ({ early, kept: null }),
  () => ({ early: null, kept: null }),
);
let answeredYet = false;
void answered.then(() => {
  answeredYet = true;
});
const keptFirst: Promise<FirstReport> = keptReport.then((kept) => (kept ? { early: null, kept } : answered));
// The kept copy is painted as soon as it is read, without waiting for the settings' chat sites (a
// round trip to the background, like the answer itself): until they are in, only the built-in chat
// sites count, and nothing on a kept copy can be acted on anyway.
void Promise.all([origin, keptReport]).then(([resolved, kept]) => {
  if (kept === null || target !== null || answeredYet) return;
  target = withChatCheck(resolved, chatSiteCheck(isKnownChatHost, []));
  readyKept.current = kept;
  draw();
});
void Promise.all([origin, isChatHost, Promise.race([answered, keptFirst])]).then(([resolved, isChat, first]) => {
  const painted = target !== null;
  target = withChatCheck(resolved, isChat);
  if (!painted) {
    readyReport.current = first.early;
    readyKept.current = first.kept;
    // Only a view painted from the kept copy takes the early request as its first load; otherwise
    // the answer is handed over now (or failed), and the view's reads ask the background again.
    if (first.kept === null) pendingReport.current = null;
  }
  draw();
});
