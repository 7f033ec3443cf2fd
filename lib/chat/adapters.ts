// The chat composers Skillpin knows (PRODUCT.md §6): one row per site, each selector with
// the editor behind it, most specific first. Selectors ship in the bundle; there is no
// remote configuration. docs/chat-sites.md has the same table for people, with what the
// tests cover; a site redesign should be a one-row change here and there.
//
// Any other page falls back to its focused field, else to its only or largest visible
// message box (composer.ts pageComposer), and the editor is recognised from the element.

/** The editor behind a composer: decides how text goes in (insert.ts) and how it is read back. */
export type EditorKind = 'textarea' | 'prosemirror' | 'quill' | 'lexical' | 'contenteditable';

export interface ComposerSelector {
  selector: string;
  editor: EditorKind;
  /**
   * Set on selectors kept for an earlier version of the site: the date (YYYY-MM) after
   * which the row should be dropped unless the site is seen using it again.
   */
  legacyUntil?: string;
}

export interface ChatAdapter {
  id: string;
  label: string;
  /** Host suffixes: a host matches when it equals one or ends with "." + one. */
  hosts: string[];
  /** Composer selectors, most specific first; the first shown, writable match wins. */
  composer: ComposerSelector[];
  /** Elements inside any of these are never the composer (edit boxes of earlier messages). */
  exclude: string[];
  /** Where the selectors come from, and when they were last checked against that source. */
  source: string;
  checked: string;
}

export const CHAT_ADAPTERS: readonly ChatAdapter[] = [
  {
    id: 'chatgpt',
    label: 'ChatGPT',
    hosts: ['chatgpt.com', 'chat.openai.com'],
    composer: [
      { selector: 'div#prompt-textarea.ProseMirror[contenteditable="true"]', editor: 'prosemirror' },
      { selector: '#prompt-textarea[contenteditable="true"]', editor: 'prosemirror' },
      { selector: 'div.ProseMirror[contenteditable="true"]', editor: 'prosemirror' },
      { selector: 'textarea#prompt-textarea', editor: 'textarea', legacyUntil: '2027-06' },
    ],
    exclude: [],
    source: "peer extensions' adapters (MCP SuperAssistant, My Prompt Manager) and their issue reports",
    checked: '2026-12',
  },
  {
    id: 'claude',
    label: 'Claude',
    hosts: ['claude.ai'],
    composer: [
      { selector: 'div[data-testid="chat-input"][contenteditable="true"]', editor: 'prosemirror' },
      { selector: 'fieldset div.ProseMirror[contenteditable="true"][role="textbox"]', editor: 'prosemirror' },
      { selector: 'div.ProseMirror[contenteditable="true"][role="textbox"]', editor: 'prosemirror' },
      { selector: 'fieldset div[contenteditable="true"]', editor: 'prosemirror' },
    ],
    exclude: [],
    source: 'peer extensions\' adapters (My Prompt Manager platforms table; [data-testid="chat-input"] first, as peers now find it)',
    checked: '2026-12',
  },
  {
    id: 'gemini',
    label: 'Gemini',
    hosts: ['gemini.google.com'],
    composer: [
      { selector: 'rich-textarea .ql-editor.new-input-ui[contenteditable="true"]', editor: 'quill' },
      { selector: 'rich-textarea .ql-editor[contenteditable="true"]', editor: 'quill' },
      { selector: 'div.ql-editor[contenteditable="true"][role="textbox"]', editor: 'quill' },
    ],
    exclude: ['.edit-mode'],
    source: "peer extensions' adapters (My Prompt Manager, MCP SuperAssistant); .edit-mode holds the edit box of an earlier message",
    checked: '2026-12',
  },
  {
    id: 'perplexity',
    label: 'Perplexity',
    hosts: ['perplexity.ai'],
    composer: [
      { selector: '#ask-input[data-lexical-editor="true"]', editor: 'lexical' },
      { selector: 'div[contenteditable="true"][data-lexical-editor="true"]', editor: 'lexical' },
      { selector: 'textarea#ask-input', editor: 'textarea', legacyUntil: '2027-06' },
    ],
    exclude: [],
    source: "peer extensions' adapters (MCP SuperAssistant)",
    checked: '2026-12',
  },
  {
    id: 'mistral',
    label: 'Mistral Le Chat',
    hosts: ['chat.mistral.ai'],
    composer: [
      { selector: 'div.ProseMirror[contenteditable="true"]', editor: 'prosemirror' },
      { selector: 'textarea[name="message.text"]', editor: 'textarea', legacyUntil: '2027-06' },
    ],
    exclude: [],
    source: "peer extensions' adapters (My Prompt Manager); the textarea is the composer before Le Chat moved to ProseMirror",
    checked: '2026-12',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    hosts: ['chat.deepseek.com'],
    composer: [
      { selector: 'textarea[placeholder="Message DeepSeek"]', editor: 'textarea' },
      { selector: 'textarea.ds-scroll-area', editor: 'textarea' },
      { selector: 'textarea#chat-input', editor: 'textarea', legacyUntil: '2027-03' },
    ],
    exclude: [],
    source: "peer extensions' reports: the textarea no longer has #chat-input",
    checked: '2026-12',
  },
  {
    id: 'copilot',
    label: 'Microsoft Copilot',
    hosts: ['copilot.microsoft.com'],
    composer: [
      { selector: 'textarea#userInput', editor: 'textarea' },
      { selector: 'textarea[data-testid="composer-input"]', editor: 'textarea' },
    ],
    exclude: [],
    source: "peer extensions' adapters (My Prompt Manager)",
    checked: '2026-12',
  },
];

/** The adapter for a page's hostname, or null (exact host or a subdomain of a listed host). */
export function adapterForHost(hostname: string): ChatAdapter | null {
  if (typeof hostname !== 'string') return null;
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '') return null;
  return CHAT_ADAPTERS.find((adapter) => adapter.hosts.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) ?? null;
}

/** Match patterns for the chat content script and the editable-field context menu. */
export const CHAT_MATCH_PATTERNS: string[] = CHAT_ADAPTERS.flatMap((adapter) => adapter.hosts.map((host) => `https://*.${host}/*`));
