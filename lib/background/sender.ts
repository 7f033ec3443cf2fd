// Who sent a runtime message. Privileged requests are accepted only from the
// extension's own pages (popup, options), never from content scripts or web pages.

export interface SenderLike {
  id?: string;
  url?: string;
  origin?: string;
  /** Set by the browser for a sender inside a tab (a content script, an extension page in a tab). */
  tab?: { id?: number; url?: string; incognito?: boolean };
}

export function isExtensionPage(sender: SenderLike, runtimeId: string, extensionBase: string): boolean {
  // A content script's sender.url is the page's URL, so the prefix check
  // already refuses it; the origin check guards against look-alike paths.
  if (sender.id !== runtimeId || !(sender.url ?? '').startsWith(extensionBase)) return false;
  return sender.origin === undefined || sender.origin === 'null' || extensionBase.startsWith(sender.origin);
}
