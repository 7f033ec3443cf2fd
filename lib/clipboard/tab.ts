// Copying through a tab: Firefox has no offscreen documents, so its background runs a
// small self-contained function in the active tab (scripting.executeScript).

export interface ScriptingApiLike {
  executeScript(injection: {
    target: { tabId: number };
    func: (text: string) => Promise<boolean>;
    args: [string];
  }): Promise<Array<{ result?: unknown }> | undefined>;
}

/**
 * Runs inside the page, so it must not reference anything outside its own body
 * (executeScript serializes the function source). Same logic as writeClipboard().
 */
export async function inlineCopy(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall back to the textarea below.
  }
  const doc = document;
  const parent = doc.body || doc.documentElement;
  if (!parent || typeof doc.execCommand !== 'function') return false;
  const previous = doc.activeElement as HTMLElement | null;
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;pointer-events:none;';
  let ok = false;
  try {
    parent.appendChild(area);
    area.focus();
    area.select();
    ok = doc.execCommand('copy') === true;
  } catch {
    ok = false;
  } finally {
    area.remove();
    try {
      if (previous && previous !== doc.body && typeof previous.focus === 'function') previous.focus();
    } catch {
      // best effort
    }
  }
  return ok;
}

/** Copies `text` to the clipboard from tab `tabId`. Never throws. */
export async function copyViaTab(api: { scripting: ScriptingApiLike }, tabId: number, text: string): Promise<boolean> {
  if (!Number.isInteger(tabId) || tabId < 0 || typeof text !== 'string') return false;
  try {
    const results = await api.scripting.executeScript({ target: { tabId }, func: inlineCopy, args: [text] });
    return Array.isArray(results) && results.length > 0 && results[0]?.result === true;
  } catch {
    return false;
  }
}
