// The platform a background test runs on in place of the extension APIs. FakeHandOff is the
// hand-off half: frames with a URL the test sets, a chat content script that inserts and records
// what it got, and a clipboard. FakePlatform adds the rest of BackgroundPlatform, recording it.
import type { Badge } from '../../../lib/background/badge';
import type { FrameTarget, HandOffPlatform } from '../../../lib/background/hand-off';
import type { MenuModel } from '../../../lib/background/menus';
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
