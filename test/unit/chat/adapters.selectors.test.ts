// @vitest-environment happy-dom
// Per saved composer shape (test/fixtures/chat): which adapter selector finds the
// composer, that it is the composer, and that the selector matches exactly one element.
// The same is checked in real Chromium on the real-editor pages (test/e2e/composers.spec.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { CHAT_ADAPTERS } from '../../../lib/chat/adapters';
import { findComposer } from '../../../lib/chat/composer';
import { loadFixture } from './editors';

const EXPECTED: Record<string, { selector: string; editor: string }> = {
  chatgpt: { selector: 'div#prompt-textarea.ProseMirror[contenteditable="true"]', editor: 'prosemirror' },
  claude: { selector: 'div[data-testid="chat-input"][contenteditable="true"]', editor: 'prosemirror' },
  gemini: { selector: 'rich-textarea .ql-editor.new-input-ui[contenteditable="true"]', editor: 'quill' },
  perplexity: { selector: '#ask-input[data-lexical-editor="true"]', editor: 'lexical' },
  mistral: { selector: 'div.ProseMirror[contenteditable="true"]', editor: 'prosemirror' },
  deepseek: { selector: 'textarea[placeholder="Message DeepSeek"]', editor: 'textarea' },
  copilot: { selector: 'textarea#userInput', editor: 'textarea' },
};

beforeEach(() => {
  document.body.innerHTML = '';
});

describe.each(CHAT_ADAPTERS.map((a) => [a.id, a] as const))('%s fixture', (id, adapter) => {
  it('is found by the expected selector, which matches exactly one element', () => {
    loadFixture(id);
    const found = findComposer(document, adapter);
    expect(found?.el).toBe(document.querySelector('[data-fixture-composer]'));
    expect({ selector: found?.selector, editor: found?.editor }).toEqual(EXPECTED[id]);
    expect(document.querySelectorAll(found?.selector ?? '*')).toHaveLength(1);
  });
});

describe('Gemini: the edit box of an earlier message', () => {
  it('is never chosen, not even when it has focus', () => {
    loadFixture('gemini');
    const edit = document.querySelector<HTMLElement>('.edit-mode .ql-editor');
    edit?.focus();
    const gemini = CHAT_ADAPTERS.find((a) => a.id === 'gemini') ?? null;
    expect(findComposer(document, gemini)?.el).toBe(document.querySelector('[data-fixture-composer]'));
    expect(findComposer(document, gemini, edit)?.el).toBe(document.querySelector('[data-fixture-composer]'));
  });
});
