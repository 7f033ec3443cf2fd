// The hand-off half of a BackgroundPlatform for background tests: frames with a URL the
// test sets, a chat content script that inserts and records what it got, and a clipboard.
import type { ContentInsertMessage, ContentNoticeMessage, InsertResult } from '../../../lib/messages';
import type { FrameTarget, HandOffPlatform } from '../../../lib/background/hand-off';

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
