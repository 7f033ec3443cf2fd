// The page's clipboard paths as tests drive them: execCommand('copy') and navigator.clipboard,
// each made to work, fail or throw, and the document reset between tests.
import { afterEach, beforeEach } from 'vitest';

/** A stand-in for execCommand('copy'): records what the selected textarea held. */
export function stubCopy(result: boolean | 'throw' = true): { copied: string[] } {
  const state = { copied: [] as string[] };
  const exec = (command: string): boolean => {
    if (command !== 'copy') return false;
    if (result === 'throw') throw new Error('denied');
    const active = document.activeElement;
    if (active instanceof HTMLTextAreaElement) state.copied.push(active.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0));
    return result;
  };
  Object.defineProperty(document, 'execCommand', { value: exec, configurable: true, writable: true });
  return state;
}

export function setClipboard(writeText: ((t: string) => Promise<void>) | undefined): void {
  Object.defineProperty(navigator, 'clipboard', { value: writeText === undefined ? undefined : { writeText }, configurable: true });
}

/** Registers the reset around every test of the calling file: one composer, no stubs left. */
export function resetClipboardPage(): void {
  beforeEach(() => {
    document.body.innerHTML = '<textarea id="composer"></textarea>';
  });

  afterEach(() => {
    delete (document as unknown as Record<string, unknown>).execCommand;
    setClipboard(async () => undefined);
  });
}
