// Chrome offscreen document (reason CLIPBOARD): the service worker has no DOM, so it
// sends { type: 'skillpin:offscreen-copy', text } here. Only this extension's background
// is answered; every other message is left alone.
import { handleOffscreenMessage } from '@/lib/clipboard/offscreen';

browser.runtime.onMessage.addListener((message: unknown, sender: unknown, sendResponse: (response: unknown) => void): boolean => {
  const s = (typeof sender === 'object' && sender !== null ? sender : {}) as { id?: string; tab?: unknown };
  const answer = handleOffscreenMessage(message, s, browser.runtime.id, document);
  if (answer === null) return false;
  void answer.then(sendResponse);
  return true;
});
