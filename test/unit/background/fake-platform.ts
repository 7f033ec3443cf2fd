// The platform a background test runs on in place of the extension APIs. FakeHandOff is the
// hand-off half: frames with a URL the test sets, a chat content script that inserts and records
// what it got, and a clipboard. FakePlatform adds the rest of BackgroundPlatform, recording it.
import type { Badge } from '../../../lib/background/badge';
import type { FrameTarget, HandOffPlatform } from '../../../lib/background/chat-delivery';
import type { MenuModel } from '../../../lib/background/menus';
import type { NativePlatform } from '../../../lib/background/deps';
import type { BackgroundPlatform } from '../../../lib/background/service';
import type { ContentInsertMessage, ContentNoticeMessage, InsertResult } from '../../../lib/messages';

export class FakeHandOff implements HandOffPlatform {
  /** `${tabId}:${frameId}` → the URL that frame shows now. */
  frames = new Map<string, string>();
  inserts: { tabId: number; frameId: number; text: string; origin: string }[] = [];
  notices: { tabId: number; frameId: number; text: string }[] = [];
  copies: string[] = [];
  answer: InsertResult = { ok: true, method: 'insert-text', message: 'inserted' };
  copyWorks = true;

  show(tabId: number, url: string, frameId = 0): void {
    this.frames.set(`${tabId}:${frameId}`, url);
  }
  async frameUrl({ tabId, frameId }: FrameTarget): Promise<string | null> {
    return this.frames.get(`${tabId}:${frameId}`) ?? null;
  }
  async sendToFrame({ tabId, frameId }: FrameTarget, message: ContentInsertMessage | ContentNoticeMessage): Promise<unknown> {
    if (message.type === 'skillpin:content-notice') {
      this.notices.push({ tabId, frameId, text: message.text });
      return { ok: true };
    }
    this.inserts.push({ tabId, frameId, text: message.text, origin: message.origin });
    return this.answer;
  }
  async copyText(text: string): Promise<boolean> {
    this.copies.push(text);
    return this.copyWorks;
  }
}

/**
 * A whole BackgroundPlatform in memory: badges per tab, notifications, the last menu model,
 * local storage as a map and the open tabs a test lists. Tests that need a platform to fail or
 * to answer differently extend it and override that one method.
 */
export class FakePlatform extends FakeHandOff implements BackgroundPlatform {
  badges = new Map<number, Badge>();
  notifications: { id: string; title: string; message: string }[] = [];
  menus: MenuModel | null = null;
  local = new Map<string, unknown>();
  tabs: { id: number; url: string | null; incognito: boolean }[] = [];
  /** Native messaging for the desktop mirror (fake-native.ts); absent unless a test sets it. */
  native?: NativePlatform;
  async setBadge(tabId: number, badge: Badge) {
    this.badges.set(tabId, badge);
  }
  async notify(id: string, title: string, message: string) {
    this.notifications.push({ id, title, message });
  }
  async listTabs() {
    return this.tabs;
  }
  async updateMenus(model: MenuModel) {
    this.menus = model;
  }
  async getLocal(key: string) {
    return this.local.get(key);
  }
  async setLocal(key: string, value: unknown) {
    this.local.set(key, value);
  }
}

/**
 * A FakePlatform whose organisation policy, session storage, site access and active tabs a test
 * sets: what the gates' rules read (probe-gate.ts, hand-off-gate.ts).
 */
export class RulesPlatform extends FakePlatform {
  /** What managed storage answers; an Error makes the read fail, HANG makes it never answer. */
  managed: unknown = undefined;
  session = new Map<string, unknown>();
  /** The host patterns granted; null: every site (the manifest's host permissions). */
  granted: string[] | null = null;
  active: { id: number; url: string | null; incognito: boolean }[] = [];
  async getManaged() {
    if (this.managed === HANG) return new Promise<never>(() => undefined);
    if (this.managed instanceof Error) throw this.managed;
    return structuredClone(this.managed);
  }
  async getSession(key: string) {
    return this.session.get(key);
  }
  async setSession(key: string, value: unknown) {
    this.session.set(key, structuredClone(value));
  }
  permissions = {
    contains: async (patterns: string[]) => this.granted === null || patterns.every((p) => this.granted?.includes(p)),
    grantedOrigins: async () => this.granted ?? ['http://*/*', 'https://*/*'],
  };
  async activeTabs() {
    return this.active;
  }
}

/** RulesPlatform.managed: managed storage that never answers. */
export const HANG = Symbol('hang');
