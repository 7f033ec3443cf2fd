// Chat content script: inserts an approved skill context into the chat composer when the
// background asks (PRODUCT.md §6). It listens only to this extension, never sends
// privileged messages, and never presses Send. The background may also inject this same
// file into any tab (scripting.executeScript) for the focused-field fallback: the slot
// guard keeps a single listener per page.
import { CHAT_MATCH_PATTERNS } from '@/lib/chat/adapters';
import { claimListenerSlot, onContentMessage } from '@/lib/chat/content-handler';

export default defineContentScript({
  matches: CHAT_MATCH_PATTERNS,
  runAt: 'document_idle',
  main(ctx) {
    if (!claimListenerSlot(globalThis, () => ctx.isValid)) return;
    const listener = (message: unknown, sender: unknown, sendResponse: (response: unknown) => void): boolean => {
      if (!ctx.isValid) return false;
      const answer = onContentMessage(message, sender, { runtimeId: browser.runtime.id, doc: document });
      if (answer === null) return false;
      void answer.then(sendResponse);
      return true;
    };
    browser.runtime.onMessage.addListener(listener);
    ctx.onInvalidated(() => browser.runtime.onMessage.removeListener(listener));
  },
});
