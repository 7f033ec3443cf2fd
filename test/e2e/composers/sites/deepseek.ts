// DeepSeek's composer: a React-controlled textarea.ds-scroll-area found by its
// placeholder (it no longer has an id).
import { mountReactTextarea } from '../react-textarea';

mountReactTextarea('deepseek', document.querySelector('[data-editor-place]') as HTMLElement, {
  placeholder: 'Message DeepSeek',
  className: '_27c9245 ds-scroll-area',
});
