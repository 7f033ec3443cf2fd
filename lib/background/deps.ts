// What the background service is given and what it offers. Every browser call goes through
// BackgroundPlatform, so the same code runs in Chrome's service worker, Firefox's event page
// and node tests; entrypoints/background/ implements it with the extension APIs.
import type { RequestGuard } from '../net/request-guard';
import type { TrustStore } from '../store/store-api';
import type { Clock, FetchLike, OriginReport } from '../types';
import type { LinkDeps } from '../desktop/link';
import type { Badge } from './badge';
import type { HandOffPlatform } from './chat-delivery';
import type { MenuModel } from './menus';
import type { SenderLike } from './sender';
import type { AccessSource } from './site-access';

/** Native messaging to Skillpin's desktop program (docs/desktop.md), as the background uses it: the link's own ports and timers, and more. */
export interface NativePlatform extends Pick<LinkDeps, 'connectNative' | 'disconnectReason' | 'timers'> {
  /** The browser grants the optional nativeMessaging permission now. */
  granted(): Promise<boolean>;
  /**
   * This background can open a native port: with its own connectNative (Chrome gives it only to a
   * background started after the grant) or through a page of ours that carries one (lib/desktop/relay.ts).
   */
  available(): boolean;
  /** Calls `listener` when available() may have changed (a carrier page came or went). */
  onAvailable?(listener: () => void): void;
  /** Where the browser looks for the program's manifest on this computer, as the options page names it. */
  manifestPlaces?(): Promise<string[]>;
  /** The terminal command that installs the program for this browser, its extension id filled in. */
  installCommand: string;
}

export interface BackgroundPlatform extends HandOffPlatform {
  setBadge(tabId: number, badge: Badge): Promise<void>;
  notify(id: string, title: string, message: string): Promise<void>;
  /** Open tabs with their URL (http(s) only matter). */
  listTabs(): Promise<{ id: number; url: string | null; incognito: boolean }[]>;
  /** The active tab of each window; absent under node tests that do not need it. */
  activeTabs?(): Promise<{ id: number; url: string | null; incognito: boolean }[]>;
  updateMenus(model: MenuModel): Promise<void>;
  /** Persisted key/value for small background state (notified changes). */
  getLocal(key: string): Promise<unknown>;
  setLocal(key: string, value: unknown): Promise<void>;
  /**
   * The organisation's policy object from managed storage (docs/policies.md); undefined when
   * none is set. Absent: no policy can apply (node tests that do not inject one).
   */
  getManaged?(): Promise<unknown>;
  /** Session storage (kept while the browser runs, across worker restarts); absent under node. */
  getSession?(key: string): Promise<unknown>;
  setSession?(key: string, value: unknown): Promise<void>;
  /** The browser's answer about the extension's site access (lib/background/site-access.ts); absent: every site. */
  permissions?: AccessSource;
  /** A toolbar click grants the tab's origin while the tab stays on it (Chrome's "On click"). */
  clickGrantsAccess?: boolean;
  /** Native messaging for the desktop mirror; absent: there is none (node tests that do not need it). */
  native?: NativePlatform;
}

export interface BackgroundDeps {
  openStore: () => Promise<TrustStore>;
  fetch: FetchLike;
  /** The browser's redirect-hop guard (lib/net/request-guard.ts); absent under node. */
  guard?: RequestGuard;
  clock: Clock;
  platform: BackgroundPlatform;
  runtimeId: string;
  /** `chrome-extension://<id>/` or `moz-extension://<uuid>/`. */
  extensionBase: string;
  version: string;
  /** How long a caller waits for managed storage (policy-cache.ts POLICY_WAIT_MS unless given; tests shorten it). */
  policyWaitMs?: number;
  /** How long readiness waits for a known policy (READY_POLICY_WAIT_MS unless given; tests shorten it). */
  readyPolicyWaitMs?: number;
}

/** A tab as a context-menu click names it. */
export type MenuTab = NonNullable<SenderLike['tab']>;

export interface BackgroundService {
  /** Resolves once the store is open and the service can answer. */
  ready: Promise<void>;
  handleMessage(message: unknown, sender: SenderLike): Promise<unknown>;
  /** A top-level page of the tab has loaded (or its load stopped): page-events.ts calls it then, never earlier. */
  onNavigation(tabId: number, url: string, incognito: boolean): Promise<OriginReport | null>;
  /** The tab closed. */
  onTabClosed(tabId: number): void;
  onAlarm(name: string): Promise<void>;
  /** A context-menu click; `frameId` is the frame the menu was opened in (0: the top frame). */
  onMenuClick(menuItemId: string, tab: MenuTab | null, frameId?: number): Promise<boolean>;
  onNotificationClick(notificationId: string): string | null;
  refreshMenus(): Promise<void>;
  /** Managed storage changed (storage.onChanged, area `managed`): the policy is read again. */
  onManagedChanged(): Promise<void>;
  /** The extension's permissions changed (permissions.onAdded / onRemoved); `granted` lists added host patterns. */
  onAccessChanged(granted: readonly string[]): Promise<void>;
  /** The background's own re-check of an origin, through the probe gate (diagnostics, the demo). */
  probe(origin: string): Promise<OriginReport>;
  /** Resolves once no probe is waiting for the gate or running, and the desktop mirror is not mid-run. */
  idle(): Promise<void>;
}
