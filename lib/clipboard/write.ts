// Writing text to the clipboard from a document (content script, offscreen document,
// extension page). Never throws: the result says whether some method reported success.

/** Copies through a hidden textarea and execCommand('copy'); restores focus and selection. */
export function copyWithTextarea(doc: Document, text: string): boolean {
  const body = doc.body ?? doc.documentElement;
  if (body === null) return false;
  const exec = (doc as Document & { execCommand?: unknown }).execCommand;
  if (typeof exec !== 'function') return false;
  const previousFocus = doc.activeElement;
  const selection = doc.getSelection();
  const previousRanges = selection === null ? [] : Array.from({ length: selection.rangeCount }, (_, i) => selection.getRangeAt(i));
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.setAttribute('tabindex', '-1');
  area.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;pointer-events:none;';
  let copied = false;
  try {
    body.appendChild(area);
    area.focus();
    area.select();
    area.setSelectionRange(0, text.length);
    copied = exec.call(doc, 'copy') === true;
  } catch {
    // The copy failed: copied stays false.
  } finally {
    area.remove();
    try {
      const focusable = previousFocus as (Element & { focus?: () => void }) | null;
      if (focusable !== null && focusable !== doc.body && typeof focusable.focus === 'function') focusable.focus();
      if (selection !== null && previousRanges.length > 0) {
        selection.removeAllRanges();
        for (const range of previousRanges) selection.addRange(range);
      }
    } catch {
      // Restoring focus is best effort.
    }
  }
  return copied;
}

/** navigator.clipboard.writeText, falling back to a hidden textarea + execCommand('copy'). */
export async function writeClipboard(text: string, doc?: Document): Promise<boolean> {
  const d = doc ?? (typeof document === 'undefined' ? undefined : document);
  const nav = d?.defaultView?.navigator ?? (typeof navigator === 'undefined' ? undefined : navigator);
  try {
    if (nav?.clipboard !== undefined && typeof nav.clipboard.writeText === 'function') {
      await nav.clipboard.writeText(text);
      return true;
    }
  } catch {
    // No focus, no permission or no user activation: try the textarea.
  }
  if (d === undefined) return false;
  return copyWithTextarea(d, text);
}
