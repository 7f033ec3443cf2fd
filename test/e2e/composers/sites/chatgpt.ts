import { mountProseMirrorComposer } from '../prosemirror-composer';

mountProseMirrorComposer('chatgpt', document.querySelector('[data-editor-place]') as HTMLElement);
