// @vitest-environment happy-dom
// The insertion routine's own logic under node: which method each editor gets, what the
// line read-back accepts, how a failed attempt is undone, and that nothing is pressed.
// Whether the methods work in the real editors is proven in real browsers
// (test/e2e/composers.spec.ts, test/e2e/firefox); the composer here is a stand-in whose
// behaviour each test sets.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_ADAPTERS, type ChatAdapter } from '../../../lib/chat/adapters';
import { readComposerLines } from '../../../lib/chat/composer';
import { expectedLines, insertIntoComposer, insertMessage, METHODS_BY_EDITOR } from '../../../lib/chat/insert';

const SETTLE = 20;
const BLOCK = ['=== Skill context (Skillpin) ===', '# Title', '', '- item', '  - nested', '', '    code', 'ends with \\', 'last'].join('\n');

function adapter(id: string): ChatAdapter {
  const found = CHAT_ADAPTERS.find((a) => a.id === id);
  if (found === undefined) throw new Error(`no adapter ${id}`);
  return found;
}

interface Behaviour {
  /** Drop the leading spaces of each line it gets. */
  dropLeadingSpaces?: boolean;
  /** Insert everything twice. */
  twice?: boolean;
  /** Turn "\n" inside an insertText into nothing (lines glued). */
  glueNewlines?: boolean;
  /** Put the content back as it was this long after a change (an editor that rejects it late). */
  revertAfterMs?: number;
  /** Keep only this many characters. */
  maxChars?: number;
  /** Does the editor have an undo history reachable by a beforeinput historyUndo? */
  history?: boolean;
  /** The draft typed before and the insertion are one undo step (typed just before). */
  groupWithDraft?: boolean;
}

/**
 * A stand-in editor on a contenteditable of <p> lines (or a textarea): execCommand
 * insertText / insertParagraph / delete act at the end of the content, a beforeinput
 * insertReplacementText inserts its DataTransfer text, historyUndo / historyRedo walk
 * its snapshots. It records every command and every beforeinput it got.
 */
class StandIn {
  commands: string[] = [];
  inputs: string[] = [];
  private undo: string[][] = [];
  private redo: string[][] = [];
  private mergeNext = false;
  private lines: string[];
  constructor(
    readonly el: HTMLElement,
    private readonly b: Behaviour = {},
    draft: string[] = [''],
  ) {
    this.lines = [...draft];
    this.render();
    if (b.groupWithDraft) {
      this.undo.push(['']);
      this.mergeNext = true;
    }
    Object.defineProperty(document, 'execCommand', {
      configurable: true,
      writable: true,
      value: (command: string, _ui: boolean, value?: string) => {
        this.commands.push(value === undefined ? command : `${command}:${value}`);
        if (command === 'insertText') this.change(() => this.append(value ?? ''));
        else if (command === 'insertParagraph') this.change(() => this.lines.push(''));
        else if (command === 'delete') this.change(() => (this.lines = ['']));
        return true;
      },
    });
    el.addEventListener('beforeinput', (event) => {
      const e = event as InputEvent;
      this.inputs.push(e.inputType);
      if (e.inputType === 'insertReplacementText') this.change(() => this.append(e.dataTransfer?.getData('text/plain') ?? ''));
      else if (e.inputType === 'historyUndo' && b.history) this.step(this.undo, this.redo);
      else if (e.inputType === 'historyRedo' && b.history) this.step(this.redo, this.undo);
      else if (e.inputType === 'deleteContentBackward') this.change(() => (this.lines = ['']));
    });
  }
  model(): string {
    return this.lines.join('\n');
  }
  private append(text: string): void {
    let t = this.b.glueNewlines ? text.replace(/\n/g, '') : text;
    if (this.b.dropLeadingSpaces) t = t.replace(/^ +/gm, '');
    if (this.b.twice) t += t;
    const parts = t.split('\n');
    this.lines[this.lines.length - 1] += parts[0] ?? '';
    this.lines.push(...parts.slice(1));
    if (this.b.maxChars !== undefined) this.lines = this.model().slice(0, this.b.maxChars).split('\n');
  }
  private change(fn: () => void): void {
    // Grouped with the draft: the first change joins the draft's undo step instead of opening one.
    if (this.mergeNext) this.mergeNext = false;
    else this.undo.push([...this.lines]);
    this.redo = [];
    const before = [...this.lines];
    fn();
    this.render();
    if (this.b.revertAfterMs !== undefined) {
      setTimeout(() => {
        this.lines = before;
        this.render();
      }, this.b.revertAfterMs);
    }
  }
  private step(from: string[][], to: string[][]): void {
    const state = from.pop();
    if (state === undefined) return;
    to.push([...this.lines]);
    this.lines = state;
    this.render();
  }
  private render(): void {
    if (this.el instanceof HTMLTextAreaElement) {
      this.el.value = this.model();
      return;
    }
    this.el.innerHTML = this.lines.map((l) => (l === '' ? '<p><br></p>' : `<p>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)).join('');
  }
}

function composer(html: string): HTMLElement {
  document.body.innerHTML = html;
  const el = document.querySelector<HTMLElement>('[data-composer]');
  if (el === null) throw new Error('no composer');
  return el;
}

let pressed: string[] = [];
const record = (e: Event): void => {
  pressed.push(e.type);
};

beforeEach(() => {
  document.body.innerHTML = '';
  pressed = [];
  for (const type of ['keydown', 'keypress', 'keyup', 'click', 'submit', 'paste']) document.addEventListener(type, record, true);
});

afterEach(() => {
  for (const type of ['keydown', 'keypress', 'keyup', 'click', 'submit', 'paste']) document.removeEventListener(type, record, true);
  delete (document as unknown as Record<string, unknown>).execCommand;
  // No key press, click, submit or paste ever comes from an insertion.
  expect(pressed).toEqual([]);
});

describe('reading a composer as lines', () => {
  it.each([
    ['ProseMirror paragraphs and an empty one', '<p>a</p><p><br class="ProseMirror-trailingBreak"></p><p>  b</p>', ['a', '', '  b']],
    ['Quill lines', '<p>x</p><p><br></p><p>    code</p>', ['x', '', '    code']],
    ['Lexical plain text: one paragraph, a <br> per line', '<p><span>a</span><br><br><span>b</span></p>', ['a', '', 'b']],
    ['a paragraph ending in a line break keeps its empty last line', '<p><span>a</span><br><br></p>', ['a', '']],
    ['a trailing <br> placeholder is no line', '<p>a<br></p>', ['a']],
    ['an empty composer is one empty line', '<p><br></p>', ['']],
    ['text and <br> straight in the root', 'a<br>b', ['a', 'b']],
    ['nested blocks in order', '<ul><li><p>one</p><ul><li><p>two</p></li></ul></li></ul><p>three</p>', ['one', 'two', 'three']],
    ['inline marks do not split lines', '<p>Run <code>npm</code> <strong>now</strong></p>', ['Run npm now']],
    ['a newline in a text node (white-space: pre-wrap)', '<p>a\nb</p>', ['a', 'b']],
  ])('%s', (_what, html, lines) => {
    const el = composer(`<div contenteditable="true" data-composer>${html}</div>`);
    expect(readComposerLines(el)).toEqual(lines);
  });

  it('a textarea by its value', () => {
    const el = composer('<textarea data-composer></textarea>') as HTMLTextAreaElement;
    el.value = 'a\n\n  b';
    expect(readComposerLines(el)).toEqual(['a', '', '  b']);
  });
});

describe('what the composer must hold afterwards', () => {
  it('an empty composer holds the block', () => {
    expect(expectedLines([''], 'a\nb')).toEqual(['a', 'b']);
  });
  it('a draft keeps its lines and the block starts on its own line', () => {
    expect(expectedLines(['Please', 'use this:'], '\na\nb')).toEqual(['Please', 'use this:', 'a', 'b']);
  });
});

describe('the method follows the editor', () => {
  it('lists a method for every editor kind and never a paste', () => {
    expect(METHODS_BY_EDITOR).toEqual({
      textarea: ['insert-text', 'value-setter'],
      prosemirror: ['insert-text'],
      quill: ['insert-lines'],
      lexical: ['replacement-text'],
      contenteditable: ['insert-text'],
    });
  });

  it('ProseMirror (ChatGPT): one insertText with the whole block', async () => {
    const el = composer('<div id="prompt-textarea" class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el);
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result).toEqual({ ok: true, method: 'insert-text', message: insertMessage('success') });
    expect(ed.commands).toEqual([`insertText:${BLOCK}`]);
    expect(ed.model()).toBe(BLOCK);
  });

  it('Quill (Gemini): a line at a time, insertParagraph between, never "\\n" inside an insertText', async () => {
    const el = composer('<rich-textarea><div class="ql-editor new-input-ui" contenteditable="true" data-composer></div></rich-textarea>');
    const ed = new StandIn(el, { glueNewlines: true });
    const result = await insertIntoComposer(document, 'a\n\n  b', { adapter: adapter('gemini'), settleMs: SETTLE });
    expect(result.method).toBe('insert-lines');
    expect(ed.commands).toEqual(['insertText:a', 'insertParagraph', 'insertParagraph', 'insertText:  b']);
    expect(ed.model()).toBe('a\n\n  b');
  });

  it('Lexical (Perplexity): one beforeinput insertReplacementText carrying the block', async () => {
    const el = composer('<div id="ask-input" contenteditable="true" data-lexical-editor="true" data-composer></div>');
    const ed = new StandIn(el);
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('perplexity'), settleMs: SETTLE });
    expect(result.method).toBe('replacement-text');
    expect(ed.inputs).toEqual(['insertReplacementText']);
    expect(ed.commands).toEqual([]);
    expect(ed.model()).toBe(BLOCK);
  });

  it('an editor the page does not name is recognised from its element', async () => {
    const el = composer('<div class="ql-editor" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el);
    el.focus();
    const result = await insertIntoComposer(document, 'x\ny', { adapter: null, settleMs: SETTLE });
    expect(result.method).toBe('insert-lines');
    expect(ed.model()).toBe('x\ny');
  });

  it('a textarea whose page ignores execCommand gets the native setter and an input event', async () => {
    const el = composer('<textarea placeholder="Message DeepSeek" data-composer></textarea>') as HTMLTextAreaElement;
    const inputs: string[] = [];
    el.addEventListener('input', (e) => inputs.push((e as InputEvent).inputType));
    const result = await insertIntoComposer(document, 'a\n  b', { adapter: adapter('deepseek'), settleMs: SETTLE });
    expect(result.method).toBe('value-setter');
    expect(el.value).toBe('a\n  b');
    expect(inputs).toEqual(['insertText']);
  });

  it('CR LF in the block arrives as lines (what every editor keeps of it)', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el);
    expect((await insertIntoComposer(document, 'a\r\nb\r\n', { adapter: adapter('chatgpt'), settleMs: SETTLE })).ok).toBe(true);
    expect(ed.model()).toBe('a\nb\n');
  });

  it('a draft stays above the block', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el, {}, ['Please use this:']);
    expect((await insertIntoComposer(document, 'a\nb', { adapter: adapter('chatgpt'), settleMs: SETTLE })).ok).toBe(true);
    expect(ed.model()).toBe('Please use this:\na\nb');
  });
});

describe('the read-back sees line structure', () => {
  it.each([
    ['lost indentation', { dropLeadingSpaces: true, history: true }],
    ['lines glued together', { glueNewlines: true, history: true }],
    ['the block twice', { twice: true, history: true }],
    ['a cut-off block', { maxChars: 20, history: true }],
  ] as const)('%s is no success, and the composer is put back through its undo', async (_what, behaviour) => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el, behaviour, ['Draft']);
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('rejected') });
    expect(ed.inputs).toContain('historyUndo');
    expect(ed.model()).toBe('Draft');
  });

  it('an editor that reverts the text after it first showed it is caught by the second read', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el, { revertAfterMs: SETTLE + 5 });
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE * 2 });
    expect(result.message).toBe(insertMessage('rejected'));
    expect(ed.model()).toBe('');
  });

  it('an editor that ignores the method leaves the composer untouched and says so', async () => {
    const el = composer('<div id="ask-input" contenteditable="true" data-lexical-editor="true" data-composer></div>');
    el.addEventListener('beforeinput', (e) => e.stopImmediatePropagation(), true);
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('perplexity'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('rejected') });
  });
});

describe('putting a composer back', () => {
  it('an undo that would also take the draft typed just before is redone, and the answer says to check', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el, { maxChars: 12, history: true, groupWithDraft: true }, ['Draft']);
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('partial') });
    expect(ed.inputs).toEqual(['historyUndo', 'historyRedo']);
    expect(ed.model().startsWith('Draft')).toBe(true);
  });

  it('an editor without history that was empty is emptied as an edit it sees', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el, { maxChars: 12 });
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE });
    expect(result.message).toBe(insertMessage('rejected'));
    expect(ed.commands.at(-1)).toBe('delete');
    expect(ed.model()).toBe('');
  });

  it('a Lexical composer is emptied through a beforeinput it handles', async () => {
    const el = composer('<div id="ask-input" contenteditable="true" data-lexical-editor="true" data-composer></div>');
    const ed = new StandIn(el, { dropLeadingSpaces: true });
    const result = await insertIntoComposer(document, BLOCK, { adapter: adapter('perplexity'), settleMs: SETTLE });
    expect(result.message).toBe(insertMessage('rejected'));
    expect(ed.inputs).toEqual(['insertReplacementText', 'historyUndo', 'deleteContentBackward']);
    expect(ed.model()).toBe('');
  });

  it('an editor with a draft and no way back: the answer says to check the message box', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    new StandIn(el, { maxChars: 12 }, ['Draft']);
    expect((await insertIntoComposer(document, BLOCK, { adapter: adapter('chatgpt'), settleMs: SETTLE })).message).toBe(insertMessage('partial'));
  });

  it('a textarea gets its saved value back, then the next method is tried', async () => {
    const el = composer('<textarea id="userInput" data-composer></textarea>') as HTMLTextAreaElement;
    const ed = new StandIn(el, { dropLeadingSpaces: true }, ['Draft']);
    const result = await insertIntoComposer(document, 'a\n  b', { adapter: adapter('copilot'), settleMs: SETTLE });
    // insertText lost the indentation and was undone; the value setter then put the block in.
    expect(ed.commands.slice(0, 2)).toEqual(['insertText:\na\n  b', 'undo']);
    expect(result.method).toBe('value-setter');
    expect(el.value).toBe('Draft\na\n  b');
  });
});

describe('nothing to do', () => {
  it('an empty or blank text is refused before anything is touched', async () => {
    const el = composer('<div class="ProseMirror" contenteditable="true" data-composer></div>');
    const ed = new StandIn(el);
    expect(await insertIntoComposer(document, ' \n\t', { adapter: adapter('chatgpt') })).toEqual({ ok: false, method: 'none', message: insertMessage('empty') });
    expect(ed.commands).toEqual([]);
  });

  it('no composer on the page', async () => {
    document.body.innerHTML = '<p>hello</p>';
    expect(await insertIntoComposer(document, 'x', { adapter: adapter('claude') })).toEqual({ ok: false, method: 'none', message: insertMessage('noComposer') });
  });
});
