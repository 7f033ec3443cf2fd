// Copilot's composer: a React-controlled textarea#userInput[data-testid="composer-input"].
import { mountReactTextarea } from '../react-textarea';

mountReactTextarea('copilot', document.querySelector('[data-editor-place]') as HTMLElement, {
  id: 'userInput',
  'data-testid': 'composer-input',
  placeholder: 'Message Copilot',
  className: 'block min-h-user-input w-full resize-none',
});
