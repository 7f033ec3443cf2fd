// Gemini's composer: Quill 2 inside <rich-textarea> (.ql-editor.textarea.new-input-ui);
// Enter sends, Shift+Enter is a new line. With `dropsNewlines` the editor keeps the
// text of an insertText but drops its "\n", as the live site is reported to do.
import 'quill/dist/quill.core.css';
import Quill from 'quill';
import { installProbe, pasteAsAttachment, send } from './probe';

export function mountQuillComposer(site: string, place: HTMLElement, opts: { dropsNewlines: boolean }): Quill {
  let quill: Quill | null = null;
  const probe = installProbe(
    site,
    () => (quill ? quill.getText().replace(/\n$/, '') : ''),
    () => (quill ? quill.getSelection()?.index === quill.getLength() - 1 && quill.getSelection()?.length === 0 : false),
    () => quill?.root ?? null,
  );
  quill = new Quill(place, {
    formats: [],
    modules: {
      history: { delay: 1000, maxStack: 100, userOnly: true },
      keyboard: {
        bindings: {
          send: { key: 'Enter', shiftKey: false, handler: () => !send(probe) },
          newline: {
            key: 'Enter',
            shiftKey: true,
            handler: (range: { index: number }) => {
              quill?.insertText(range.index, '\n', 'user');
              return false;
            },
          },
        },
      },
    },
  });
  const root = quill.root;
  root.classList.add('textarea', 'new-input-ui');
  root.setAttribute('role', 'textbox');
  root.setAttribute('aria-multiline', 'true');
  root.setAttribute('aria-label', 'Enter a prompt for Gemini');
  root.setAttribute('data-placeholder', 'Ask Gemini');
  root.addEventListener(
    'paste',
    (event) => {
      const text = event.clipboardData?.getData('text/plain') ?? '';
      if (pasteAsAttachment(probe, text, 'Pasted text')) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    true,
  );
  if (opts.dropsNewlines) dropNewlinesOfInsertText(quill);
  probe.ready = true;
  return quill;
}

/**
 * Keeps the text of an insertText but not its line breaks. Chromium reports each line
 * break inside an execCommand insertText as an input event with no data; the paragraph
 * it opened is joined back to the one before once Quill has taken the change in.
 * (Firefox's Quill already glues such lines on its own.)
 */
function dropNewlinesOfInsertText(quill: Quill): void {
  const root = quill.root;
  const opened: Element[] = [];
  root.addEventListener(
    'input',
    (event) => {
      const input = event as InputEvent;
      if (input.inputType !== 'insertText' || input.data !== null) return;
      const node = document.getSelection()?.anchorNode ?? null;
      const block = node instanceof Element ? node.closest('p') : (node?.parentElement?.closest('p') ?? null);
      if (block !== null && root.contains(block)) opened.push(block);
      if (opened.length === 1) setTimeout(join, 0);
    },
    true,
  );
  function join(): void {
    quill.update('user');
    const blocks = opened.splice(0);
    for (const block of blocks.reverse()) {
      const blot = Quill.find(block);
      if (blot === null || blot instanceof Quill) continue;
      const at = quill.getIndex(blot);
      if (at > 0) quill.deleteText(at - 1, 1, 'user');
    }
  }
}
