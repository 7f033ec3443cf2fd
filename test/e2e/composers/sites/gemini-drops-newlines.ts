import { mountQuillComposer } from '../quill-composer';

mountQuillComposer('gemini-drops-newlines', document.querySelector('[data-editor-place]') as HTMLElement, { dropsNewlines: true });
