// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { adapterForHost, CHAT_ADAPTERS, CHAT_MATCH_PATTERNS } from '../../../lib/chat/adapters';

describe('chat adapters', () => {
  it('covers the seven sites of PRODUCT.md §6, each selector naming the editor behind it', () => {
    expect(CHAT_ADAPTERS.map((a) => [a.id, [...new Set(a.composer.map((c) => c.editor))]])).toEqual([
      ['chatgpt', ['prosemirror', 'textarea']],
      ['claude', ['prosemirror']],
      ['gemini', ['quill']],
      ['perplexity', ['lexical', 'textarea']],
      ['mistral', ['prosemirror', 'textarea']],
      ['deepseek', ['textarea']],
      ['copilot', ['textarea']],
    ]);
    for (const a of CHAT_ADAPTERS) {
      expect(a.composer.length).toBeGreaterThan(0);
      expect(a.hosts.length).toBeGreaterThan(0);
      expect(a.label).not.toBe('');
    }
  });

  it('current selectors as the peers find them: Claude by data-testid first, DeepSeek by placeholder, Gemini never in an edit box', () => {
    const first = (id: string): string | undefined => CHAT_ADAPTERS.find((a) => a.id === id)?.composer[0]?.selector;
    expect(first('claude')).toBe('div[data-testid="chat-input"][contenteditable="true"]');
    expect(first('deepseek')).toBe('textarea[placeholder="Message DeepSeek"]');
    expect(CHAT_ADAPTERS.find((a) => a.id === 'gemini')?.exclude).toContain('.edit-mode');
  });

  it('every row says where its selectors come from and when they were checked; legacy selectors carry a date to drop them', () => {
    for (const a of CHAT_ADAPTERS) {
      expect(a.source.length).toBeGreaterThan(10);
      expect(a.checked).toMatch(/^20\d\d-\d\d$/);
      for (const c of a.composer) {
        if (c.legacyUntil !== undefined) expect(c.legacyUntil > a.checked).toBe(true);
        expect(() => document.querySelector(c.selector)).not.toThrow();
      }
      for (const e of a.exclude) expect(() => document.querySelector(e)).not.toThrow();
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

  it.each(['evilchatgpt.com', 'chatgpt.com.evil.example', 'mistral.ai', 'google.com', 'microsoft.com', 'deepseek.com', '', 'localhost'])('%s has no adapter', (host) => {
    expect(adapterForHost(host)).toBeNull();
  });

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
