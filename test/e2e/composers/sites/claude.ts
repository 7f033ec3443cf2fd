// Claude's composer: Tiptap in fieldset div[data-testid="chat-input"].tiptap.ProseMirror
// [role=textbox]; Enter sends; a long paste becomes a "Pasted content" chip.
import { mountTiptapComposer } from '../tiptap-composer';

mountTiptapComposer(
  'claude',
  document.querySelector('[data-editor-place]') as HTMLElement,
  {
    'data-testid': 'chat-input',
    role: 'textbox',
    'aria-label': 'Write your prompt to Claude',
    'aria-multiline': 'true',
    enterkeyhint: 'enter',
    translate: 'no',
    class: 'tiptap ProseMirror break-words max-w-[60ch]',
  },
  'Pasted content',
);
