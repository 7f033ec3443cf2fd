// Le Chat's composer: Tiptap/ProseMirror (div.ProseMirror[contenteditable]) in a form;
// Enter sends.
import { mountTiptapComposer } from '../tiptap-composer';

mountTiptapComposer(
  'mistral',
  document.querySelector('[data-editor-place]') as HTMLElement,
  { class: 'ProseMirror', role: 'textbox', 'aria-label': 'Ask Le Chat anything', translate: 'no' },
  'Pasted text',
);
