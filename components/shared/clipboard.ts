/** Writes text to the clipboard; false when the page may not (no permission, not focused). */
export type WriteClipboard = (text: string) => Promise<boolean>;

export const writeClipboard: WriteClipboard = async (text) => {
  try {
    if (typeof navigator === 'undefined' || !navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
};
