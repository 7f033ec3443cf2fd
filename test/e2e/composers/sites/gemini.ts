import { mountQuillComposer } from '../quill-composer';

mountQuillComposer('gemini', document.querySelector('[data-editor-place]') as HTMLElement, { dropsNewlines: false });
