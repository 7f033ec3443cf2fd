// The hook every test composer page exposes to the tests, as `window.composerTest`:
// what the site would send (read from the editor's own model, never from the DOM's
// text), how many times a send happened (Send button, Enter, form submit), and which
// attachment chips a paste produced. Test-only code: it is bundled into the composer
// pages and never into the extension.

export interface ComposerProbe {
  site: string;
  /** The editor's model as the text the site would send. */
  model(): string;
  /** True when the editor's own selection is a caret at the end of its content. */
  caretAtEnd(): boolean;
  /** Sends so far: the Send button, Enter without Shift, a form submit. */
  sends: number;
  /** The text of every attachment chip a paste turned into. */
  attachments: string[];
  /** The editor's own editable root. */
  editorRoot(): Element | null;
  /** Every beforeinput inputType the editor saw, in order (diagnostics for failing tests). */
  inputTypes: string[];
  ready: boolean;
}

declare global {
  interface Window {
    composerTest: ComposerProbe;
  }
}

/** Pasted text at least this long becomes an attachment chip on the sites that do so. */
export const LONG_PASTE_CHARS = 2000;

export function installProbe(site: string, model: () => string, caretAtEnd: () => boolean, editorRoot: () => Element | null): ComposerProbe {
  const probe: ComposerProbe = { site, model, caretAtEnd, editorRoot, sends: 0, attachments: [], inputTypes: [], ready: false };
  window.composerTest = probe;
  for (const button of Array.from(document.querySelectorAll('[data-send]'))) {
    button.addEventListener('click', (event) => {
      event.preventDefault();
      probe.sends++;
    });
  }
  for (const form of Array.from(document.querySelectorAll('form'))) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      probe.sends++;
    });
  }
  document.addEventListener(
    'beforeinput',
    (event) => {
      const root = editorRoot();
      if (root !== null && event.target instanceof Node && root.contains(event.target)) probe.inputTypes.push((event as InputEvent).inputType);
    },
    true,
  );
  return probe;
}

/** Counts a send: what Enter without Shift does on every chat site. */
export function send(probe: ComposerProbe): true {
  probe.sends++;
  return true;
}

/** Turns a long paste into a chip beside the composer, as the sites do; true when it did. */
export function pasteAsAttachment(probe: ComposerProbe, text: string, label: string): boolean {
  if (text.length < LONG_PASTE_CHARS) return false;
  probe.attachments.push(text);
  const shelf = document.querySelector('[data-attachments]');
  const chip = document.createElement('div');
  chip.className = 'attachment-chip';
  chip.setAttribute('data-testid', 'attachment-chip');
  chip.textContent = `${label} (${text.length} characters)`;
  shelf?.appendChild(chip);
  return true;
}
