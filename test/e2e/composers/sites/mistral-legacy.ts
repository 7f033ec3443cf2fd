// Le Chat's earlier composer: a React-controlled textarea[name="message.text"].
import { mountReactTextarea } from '../react-textarea';

mountReactTextarea('mistral-legacy', document.querySelector('[data-editor-place]') as HTMLElement, {
  name: 'message.text',
  placeholder: 'Ask Le Chat or @mention an agent',
  className: 'block w-full resize-none',
});
