import { describe, expect, it } from 'vitest';
import { adapterForHost, CHAT_ADAPTERS, CHAT_MATCH_PATTERNS } from '../../../lib/chat/adapters';

describe('chat adapters', () => {
  it('covers the seven sites of PRODUCT.md §6 with the editor kinds of the cookbook', () => {
    expect(CHAT_ADAPTERS.map((a) => [a.id, a.kind])).toEqual([
      ['chatgpt', 'prosemirror'],
      ['claude', 'prosemirror'],
      ['gemini', 'quill'],
      ['perplexity', 'lexical'],
      ['mistral', 'contenteditable'],
      ['deepseek', 'textarea'],
      ['copilot', 'textarea'],
    ]);
    for (const a of CHAT_ADAPTERS) {
      expect(a.composer.length).toBeGreaterThan(0);
      expect(a.hosts.length).toBeGreaterThan(0);
      expect(a.label).not.toBe('');
    }
  });

  it.each([
    ['chatgpt.com', 'chatgpt'],
    ['chat.openai.com', 'chatgpt'],
    ['CHATGPT.COM.', 'chatgpt'],
    ['claude.ai', 'claude'],
    ['gemini.google.com', 'gemini'],
    ['www.perplexity.ai', 'perplexity'],
    ['perplexity.ai', 'perplexity'],
    ['chat.mistral.ai', 'mistral'],
    ['chat.deepseek.com', 'deepseek'],
    ['copilot.microsoft.com', 'copilot'],
  ])('%s → %s', (host, id) => {
    expect(adapterForHost(host)?.id).toBe(id);
  });

  it.each(['evilchatgpt.com', 'chatgpt.com.evil.example', 'mistral.ai', 'google.com', 'microsoft.com', 'deepseek.com', '', 'localhost'])(
    '%s has no adapter',
    (host) => {
      expect(adapterForHost(host)).toBeNull();
    },
  );

  it('tolerates a non-string host', () => {
    expect(adapterForHost(undefined as unknown as string)).toBeNull();
  });

  it('match patterns are https-only and cover every host and its subdomains', () => {
    expect(CHAT_MATCH_PATTERNS).toContain('https://*.chatgpt.com/*');
    expect(CHAT_MATCH_PATTERNS).toContain('https://*.chat.openai.com/*');
    expect(CHAT_MATCH_PATTERNS).toHaveLength(CHAT_ADAPTERS.reduce((n, a) => n + a.hosts.length, 0));
    for (const p of CHAT_MATCH_PATTERNS) expect(p).toMatch(/^https:\/\/\*\.[a-z0-9.-]+\/\*$/);
  });
});
