// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_ADAPTERS, type ChatAdapter } from '../../../lib/chat/adapters';
import { normalizeForCompare, readComposerText } from '../../../lib/chat/composer';
import { INSERT_MESSAGES, insertIntoComposer } from '../../../lib/chat/insert';
import { buildSkillContext } from '../../../lib/context/skill-context';
import {
  emulateLexical,
  emulateProseMirror,
  emulateQuill,
  emulateReactTextarea,
  loadFixture,
  removeExecCommand,
  stubExecCommand,
  watchSends,
  type SendWatch,
} from './editors';

const TEXT = buildSkillContext({
  origin: 'https://docs.example.com',
  name: 'pdf-tools',
  url: 'https://docs.example.com/skills/pdf-tools/SKILL.md',
  digestLf: 'ab'.repeat(32),
  digestRaw: 'cd'.repeat(32),
  signatureState: 'verified-signed',
  keyFingerprint: 'SHA256:abc',
  bytes: new TextEncoder().encode('---\r\nname: pdf-tools\r\n---\r\n# PDF tools\r\n\r\nUse  them   well.\r\n'),
});

const SETTLE = 30;

function adapter(id: string): ChatAdapter {
  const found = CHAT_ADAPTERS.find((a) => a.id === id);
  if (found === undefined) throw new Error(`no adapter ${id}`);
  return found;
}

function composer(): HTMLElement {
  const el = document.querySelector<HTMLElement>('[data-fixture-composer]');
  if (el === null) throw new Error('fixture has no composer');
  return el;
}

function holds(el: HTMLElement, text: string): boolean {
  return normalizeForCompare(readComposerText(el)).includes(normalizeForCompare(text));
}

function emulate(kind: ChatAdapter['kind'], el: HTMLElement): void {
  if (kind === 'prosemirror' || kind === 'contenteditable') emulateProseMirror(el);
  else if (kind === 'quill') emulateQuill(el);
  else if (kind === 'lexical') emulateLexical(el);
  else emulateReactTextarea(el as HTMLTextAreaElement);
}

let sends: SendWatch;

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

afterEach(() => {
  sends?.stop();
  removeExecCommand(document);
});

describe.each(CHAT_ADAPTERS.map((a) => [a.id, a] as const))('%s composer', (id, a) => {
  it('inserts with execCommand, reads it back, and presses nothing', async () => {
    loadFixture(id);
    const el = composer();
    emulate(a.kind, el);
    const exec = stubExecCommand(document, 'browser');
    sends = watchSends(document);
    const result = await insertIntoComposer(document, TEXT, { adapter: a, settleMs: SETTLE });
    expect(result).toEqual({ ok: true, method: 'execCommand', message: expect.stringContaining('send it yourself') });
    expect(exec.calls).toEqual(['insertText']);
    expect(holds(el, TEXT)).toBe(true);
    expect(sends.count()).toBe(0);
  });

  it('falls back to the next method when execCommand is refused', async () => {
    loadFixture(id);
    const el = composer();
    emulate(a.kind, el);
    stubExecCommand(document, 'returns-false');
    sends = watchSends(document);
    const result = await insertIntoComposer(document, TEXT, { adapter: a, settleMs: SETTLE });
    expect(result.ok).toBe(true);
    // Editors take a paste; a plain textarea ignores a synthetic paste and needs the value setter.
    expect(result.method).toBe(a.kind === 'textarea' ? 'value-setter' : 'paste');
    expect(holds(el, TEXT)).toBe(true);
    expect(sends.count()).toBe(0);
  });
});

describe('method order and read-back', () => {
  it('Lexical: execCommand that the editor swallows, then paste through its own handler', async () => {
    loadFixture('perplexity');
    const el = composer();
    const lexical = emulateLexical(el, { acceptBeforeInput: false });
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('perplexity'), settleMs: SETTLE });
    expect(result.method).toBe('paste');
    expect(lexical.model()).toBe(TEXT);
  });

  it('Lexical: reads back after the editor re-renders asynchronously', async () => {
    loadFixture('perplexity');
    const el = composer();
    const lexical = emulateLexical(el);
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('perplexity'), settleMs: SETTLE });
    expect(result.method).toBe('execCommand');
    expect(lexical.model()).toBe(TEXT);
    expect(el.querySelectorAll('p').length).toBe(TEXT.split('\n').length);
  });

  it('execCommand that reports success but changes nothing is not believed', async () => {
    loadFixture('claude');
    const el = composer();
    emulateProseMirror(el);
    stubExecCommand(document, 'noop');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('claude'), settleMs: SETTLE });
    expect(result.method).toBe('paste');
    expect(holds(el, TEXT)).toBe(true);
  });

  it('execCommand that throws is treated as refused', async () => {
    loadFixture('gemini');
    const el = composer();
    emulateQuill(el);
    stubExecCommand(document, 'throws');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('gemini'), settleMs: SETTLE });
    expect(result.method).toBe('paste');
  });

  it('works when the document has no execCommand at all', async () => {
    loadFixture('chatgpt');
    const el = composer();
    emulateProseMirror(el);
    removeExecCommand(document);
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result.method).toBe('paste');
  });

  it('React-like textarea: the value setter bypasses the framework tracker and its state follows', async () => {
    loadFixture('copilot');
    const el = composer() as HTMLTextAreaElement;
    const react = emulateReactTextarea(el);
    stubExecCommand(document, 'returns-false');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('copilot'), settleMs: SETTLE });
    expect(result.method).toBe('value-setter');
    expect(react.state()).toBe(TEXT);
  });

  it('appends after text already in the composer (caret at the end)', async () => {
    loadFixture('deepseek');
    const el = composer() as HTMLTextAreaElement;
    el.value = 'Please use this skill:\n';
    el.setSelectionRange(0, 0);
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('deepseek'), settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect(el.value).toBe(`Please use this skill:\n${TEXT}`);
  });

  it('places the caret inside the last paragraph of a contenteditable', async () => {
    loadFixture('claude');
    const el = composer();
    el.innerHTML = '<p>first</p><p>second<br class="ProseMirror-trailingBreak"></p>';
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'ADDED', { adapter: adapter('claude'), settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect(el.innerHTML).toBe('<p>first</p><p>secondADDED<br class="ProseMirror-trailingBreak"></p>');
  });

  it('needs one more copy than before: text already present does not confirm a failed insert', async () => {
    loadFixture('mistral');
    const el = composer();
    el.innerHTML = '<p>hello world</p>';
    stubExecCommand(document, 'noop');
    const result = await insertIntoComposer(document, 'hello world', { adapter: adapter('mistral'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.rejected });
  });

  it('read-back failure everywhere: ok false, method none, composer untouched', async () => {
    loadFixture('chatgpt');
    const el = composer();
    const before = el.innerHTML;
    stubExecCommand(document, 'returns-false');
    sends = watchSends(document);
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.rejected });
    expect(el.innerHTML).toBe(before);
    expect(sends.count()).toBe(0);
  });

  it('a textarea that rejects every method (reverts its value) ends with ok false', async () => {
    loadFixture('copilot');
    const el = composer() as HTMLTextAreaElement;
    el.addEventListener('input', () => {
      el.value = '';
    });
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('copilot'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.rejected });
  });

  it('a partial insert stops the chain: no second copy from paste', async () => {
    loadFixture('claude');
    const el = composer();
    let pastes = 0;
    el.addEventListener('paste', () => pastes++);
    stubExecCommand(document, 'truncate');
    const result = await insertIntoComposer(document, TEXT, { adapter: adapter('claude'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.partial });
    expect(pastes).toBe(0);
  });

  it('re-finds the composer when the editor replaced the element', async () => {
    loadFixture('claude');
    const el = composer();
    el.addEventListener('paste', (event) => {
      event.preventDefault();
      const replacement = el.cloneNode(false) as HTMLElement;
      replacement.innerHTML = `<p>${(event as ClipboardEvent).clipboardData?.getData('text/plain') ?? ''}</p>`;
      el.replaceWith(replacement);
    });
    stubExecCommand(document, 'returns-false');
    const result = await insertIntoComposer(document, 'short text', { adapter: adapter('claude'), settleMs: SETTLE });
    expect(result.method).toBe('paste');
  });

  it('rejects empty and whitespace-only text without touching the page', async () => {
    loadFixture('chatgpt');
    const exec = stubExecCommand(document, 'browser');
    expect(await insertIntoComposer(document, '', { adapter: adapter('chatgpt') })).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.empty });
    expect(await insertIntoComposer(document, ' \n\t', { adapter: adapter('chatgpt') })).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.empty });
    expect(exec.calls).toEqual([]);
  });
});

describe('finding the composer', () => {
  it('skips hidden and display:none candidates (Claude stale editor, DeepSeek recaptcha textarea)', async () => {
    loadFixture('claude');
    stubExecCommand(document, 'browser');
    await insertIntoComposer(document, 'x1', { adapter: adapter('claude'), settleMs: SETTLE });
    expect(document.getElementById('stale-editor')?.textContent).toBe('stale');
    expect(composer().textContent).toContain('x1');

    loadFixture('deepseek');
    composer().removeAttribute('id');
    composer().removeAttribute('placeholder');
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'x2', { adapter: adapter('deepseek'), settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect((composer() as HTMLTextAreaElement).value).toBe('x2');
    expect((document.querySelector('.g-recaptcha-response') as HTMLTextAreaElement).value).toBe('');
  });

  it('ChatGPT: the ProseMirror editor wins over the hidden fallback textarea and the search box', async () => {
    loadFixture('chatgpt');
    (document.getElementById('decoy-search') as HTMLInputElement).focus();
    stubExecCommand(document, 'browser');
    await insertIntoComposer(document, 'hello', { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(composer().textContent).toBe('hello');
    expect((document.getElementById('decoy-search') as HTMLInputElement).value).toBe('');
  });

  it('no adapter: the focused textarea', async () => {
    loadFixture('generic');
    const notes = document.getElementById('notes') as HTMLTextAreaElement;
    notes.focus();
    stubExecCommand(document, 'browser');
    sends = watchSends(document);
    const result = await insertIntoComposer(document, TEXT, { adapter: null, settleMs: SETTLE });
    expect(result.method).toBe('execCommand');
    expect(notes.value).toBe(TEXT);
    expect(sends.count()).toBe(0);
  });

  it('no adapter: the focused text input', async () => {
    loadFixture('generic');
    const title = document.getElementById('title') as HTMLInputElement;
    title.focus();
    stubExecCommand(document, 'returns-false');
    const result = await insertIntoComposer(document, 'one line', { adapter: null, settleMs: SETTLE });
    expect(result.method).toBe('value-setter');
    expect(title.value).toBe('one line');
  });

  it('no adapter: focus inside a contenteditable means its editing host', async () => {
    loadFixture('generic');
    const rich = document.getElementById('rich') as HTMLElement;
    rich.focus();
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'More\nlines', { adapter: null, target: document.getElementById('bold'), settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect(readComposerText(rich)).toBe('\nExisting textMore\nlines\n');
  });

  it('adapter selectors that match nothing fall back to the focused field', async () => {
    loadFixture('generic');
    const notes = document.getElementById('notes') as HTMLTextAreaElement;
    notes.focus();
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'text', { adapter: adapter('claude'), settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect(notes.value).toBe('text');
  });

  // happy-dom lays nothing out, so the page fallback finds no field with a size (see composer-fallback.test.ts).
  it('nothing focused, no adapter and no laid-out field: no composer, nothing touched', async () => {
    loadFixture('generic');
    const exec = stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'text', { adapter: null });
    expect(result).toEqual({ ok: false, method: 'none', message: INSERT_MESSAGES.noComposer });
    expect(exec.calls).toEqual([]);
  });

  it('read-only, disabled and non-text fields are not composers', async () => {
    loadFixture('generic');
    const exec = stubExecCommand(document, 'browser');
    (document.getElementById('locked') as HTMLTextAreaElement).focus();
    expect((await insertIntoComposer(document, 'a', { adapter: null })).message).toBe(INSERT_MESSAGES.noComposer);
    (document.getElementById('check') as HTMLInputElement).focus();
    expect((await insertIntoComposer(document, 'a', { adapter: null, target: document.getElementById('check') })).message).toBe(INSERT_MESSAGES.noComposer);
    const notes = document.getElementById('notes') as HTMLTextAreaElement;
    notes.disabled = true;
    expect((await insertIntoComposer(document, 'a', { adapter: null, target: notes })).message).toBe(INSERT_MESSAGES.noComposer);
    expect(exec.calls).toEqual([]);
  });

  it('an explicit target wins over the adapter', async () => {
    loadFixture('chatgpt');
    const search = document.getElementById('decoy-search') as HTMLInputElement;
    stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'q', { adapter: adapter('chatgpt'), target: search, settleMs: SETTLE });
    expect(result.ok).toBe(true);
    expect(search.value).toBe('q');
    expect(composer().textContent).toBe('');
  });

  it('picks the adapter from the page host when none is given', async () => {
    loadFixture('gemini');
    const el = composer();
    emulateQuill(el);
    stubExecCommand(document, 'browser');
    const win = window as unknown as { happyDOM: { setURL(url: string): void } };
    win.happyDOM.setURL('https://gemini.google.com/app');
    try {
      const result = await insertIntoComposer(document, 'auto', { settleMs: SETTLE });
      expect(result.ok).toBe(true);
      expect(el.textContent).toBe('auto');
    } finally {
      win.happyDOM.setURL('http://localhost:3000/');
    }
  });

  it('finds a focused field inside an open shadow root', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    const area = document.createElement('textarea');
    root.append(area);
    area.focus();
    stubExecCommand(document, 'returns-false');
    const result = await insertIntoComposer(document, 'deep', { adapter: null, settleMs: SETTLE });
    expect(result.method).toBe('value-setter');
    expect(area.value).toBe('deep');
  });
});
