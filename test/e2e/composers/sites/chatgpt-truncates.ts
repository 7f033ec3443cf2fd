// As chatgpt, but the editor keeps only the first 600 characters of its content.
import { mountProseMirrorComposer } from '../prosemirror-composer';

mountProseMirrorComposer('chatgpt-truncates', document.querySelector('[data-editor-place]') as HTMLElement, { maxChars: 600 });
