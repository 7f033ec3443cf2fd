// The chat composers Skillpin knows (PRODUCT.md §6): one row per site, selectors in
// priority order plus the kind of editor behind them. Selectors ship in the bundle; there
// is no remote configuration. Any other page falls back to its focused field, else to its
// only or largest visible message box (composer.ts pageComposer).

export interface ChatAdapter {
  id: string;
  label: string;
  /** Host suffixes: a host matches when it equals one or ends with "." + one. */
  hosts: string[];
  /** CSS selectors for the composer, most specific first. */
  composer: string[];
  /** The editor behind the composer; decides how its text is read back and which methods apply. */
  kind: 'textarea' | 'prosemirror' | 'quill' | 'lexical' | 'contenteditable';
}

export const CHAT_ADAPTERS: readonly ChatAdapter[] = [
  {
    id: 'chatgpt',
    label: 'ChatGPT',
    hosts: ['chatgpt.com', 'chat.openai.com'],
    composer: ['#prompt-textarea[contenteditable="true"]', 'div.ProseMirror[contenteditable="true"]', 'textarea#prompt-textarea'],
    kind: 'prosemirror',
  },
  {
    id: 'claude',
    label: 'Claude',
    hosts: ['claude.ai'],
    composer: [
      'div.ProseMirror[contenteditable="true"][role="textbox"]',
      'div[contenteditable="true"][role="textbox"]',
      'fieldset div[contenteditable="true"]',
    ],
    kind: 'prosemirror',
  },
  {
    id: 'gemini',
    label: 'Gemini',
    hosts: ['gemini.google.com'],
    composer: ['rich-textarea .ql-editor[contenteditable="true"]', 'div.ql-editor[contenteditable="true"][role="textbox"]', '.ql-editor[contenteditable="true"]'],
    kind: 'quill',
  },
  {
    id: 'perplexity',
    label: 'Perplexity',
    hosts: ['perplexity.ai'],
    composer: ['#ask-input[contenteditable="true"]', 'div[contenteditable="true"][data-lexical-editor="true"]', 'textarea#ask-input'],
    kind: 'lexical',
  },
  {
    id: 'mistral',
    label: 'Mistral Le Chat',
    hosts: ['chat.mistral.ai'],
    composer: ['div.ProseMirror[contenteditable="true"]', 'textarea[name="message.text"]', '[contenteditable="true"][role="textbox"]', 'form textarea'],
    kind: 'contenteditable',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    hosts: ['chat.deepseek.com'],
    composer: ['textarea#chat-input', 'textarea[placeholder*="DeepSeek"]', 'textarea'],
    kind: 'textarea',
  },
  {
    id: 'copilot',
    label: 'Microsoft Copilot',
    hosts: ['copilot.microsoft.com'],
    composer: ['textarea#userInput', 'textarea[data-testid="composer-input"]', 'textarea'],
    kind: 'textarea',
  },
];

/** The adapter for a page's hostname, or null (exact host or a subdomain of a listed host). */
export function adapterForHost(hostname: string): ChatAdapter | null {
  if (typeof hostname !== 'string') return null;
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '') return null;
  for (const adapter of CHAT_ADAPTERS) {
    for (const suffix of adapter.hosts) {
      if (host === suffix || host.endsWith(`.${suffix}`)) return adapter;
    }
  }
  return null;
}

/** Match patterns for the chat content script and the editable-field context menu. */
export const CHAT_MATCH_PATTERNS: string[] = CHAT_ADAPTERS.flatMap((adapter) => adapter.hosts.map((host) => `https://*.${host}/*`));
