// The test composer pages: each is served over HTTPS at the real site's host name
// (mapped to 127.0.0.1 in the browser under test), so the extension's own adapter table
// and content-script match patterns pick it as they would pick the live site.

export type EditorFamily = 'prosemirror' | 'tiptap' | 'quill' | 'lexical' | 'react-textarea';

export interface ComposerPage {
  /** Page id: the entry `sites/<id>.ts`, and `sites/<id>.html` unless `html` names another page's shape. */
  id: string;
  /** A variant of another page uses that page's markup. */
  html?: string;
  host: string;
  /** Always ends in "/": the page is that folder's index. */
  path: string;
  /** The built-in adapter that should take this page (lib/chat/adapters.ts). */
  adapter: string;
  editor: EditorFamily;
  /** What the page is shaped after, for a reader of a failing test. */
  shape: string;
}

export const COMPOSER_PAGES: readonly ComposerPage[] = [
  { id: 'chatgpt', host: 'chatgpt.com', path: '/', adapter: 'chatgpt', editor: 'prosemirror', shape: 'div#prompt-textarea.ProseMirror beside the hidden fallback textarea; long paste → attachment' },
  {
    id: 'chatgpt-truncates',
    html: 'chatgpt',
    host: 'chatgpt.com',
    path: '/truncates/',
    adapter: 'chatgpt',
    editor: 'prosemirror',
    shape: 'as chatgpt, and the editor cuts its content to 600 characters (a composer that drops text)',
  },
  {
    id: 'claude',
    host: 'claude.ai',
    path: '/new/',
    adapter: 'claude',
    editor: 'tiptap',
    shape: 'fieldset div[data-testid="chat-input"].tiptap.ProseMirror[role=textbox]; long paste → "Pasted content"',
  },
  { id: 'mistral', host: 'chat.mistral.ai', path: '/chat/', adapter: 'mistral', editor: 'tiptap', shape: 'form div.ProseMirror[contenteditable]' },
  { id: 'mistral-legacy', host: 'chat.mistral.ai', path: '/legacy/', adapter: 'mistral', editor: 'react-textarea', shape: 'textarea[name="message.text"]' },
  { id: 'gemini', host: 'gemini.google.com', path: '/app/', adapter: 'gemini', editor: 'quill', shape: 'rich-textarea .ql-editor.textarea.new-input-ui, after an earlier message in .edit-mode' },
  { id: 'gemini-drops-newlines', html: 'gemini', host: 'gemini.google.com', path: '/drops-newlines/', adapter: 'gemini', editor: 'quill', shape: 'as gemini, and "\\n" in an insertText is dropped' },
  { id: 'perplexity', host: 'www.perplexity.ai', path: '/', adapter: 'perplexity', editor: 'lexical', shape: '#ask-input[data-lexical-editor], plain-text plugin; paste → paste.txt' },
  {
    id: 'perplexity-rich',
    html: 'perplexity',
    host: 'www.perplexity.ai',
    path: '/rich/',
    adapter: 'perplexity',
    editor: 'lexical',
    shape: '#ask-input[data-lexical-editor], rich-text plugin; paste → paste.txt',
  },
  { id: 'deepseek', host: 'chat.deepseek.com', path: '/', adapter: 'deepseek', editor: 'react-textarea', shape: 'textarea.ds-scroll-area[placeholder="Message DeepSeek"]' },
  { id: 'copilot', host: 'copilot.microsoft.com', path: '/', adapter: 'copilot', editor: 'react-textarea', shape: 'textarea#userInput[data-testid="composer-input"]' },
];

/** Host names the browser under test must resolve to 127.0.0.1. */
export const COMPOSER_HOSTS: readonly string[] = [...new Set(COMPOSER_PAGES.map((p) => p.host))];

export function composerPage(id: string): ComposerPage {
  const page = COMPOSER_PAGES.find((p) => p.id === id);
  if (!page) throw new Error(`no composer page ${id}`);
  return page;
}
