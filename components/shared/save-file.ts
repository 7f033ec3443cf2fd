// Saves bytes the background built (a skill ZIP for upload) as a file the user downloads:
// an anchor with a blob URL, clicked from the user's own click. No `downloads` permission is needed.

/** Standard base64 (what the background sends; runtime messages carry JSON) to bytes; null when malformed. */
export function base64Bytes(b64: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export type SaveFile = (filename: string, bytes: Uint8Array, type: string) => void;

export const saveFile: SaveFile = (filename, bytes, type) => {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later, not at once: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
