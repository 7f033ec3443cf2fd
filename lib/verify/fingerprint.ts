// Key fingerprints in the SSH style (PRODUCT.md §5): "SHA256:" + unpadded
// standard base64 of SHA-256(raw key bytes).

import { encodeBase64 } from './base64';
import { sha256Sync } from './sha256';

export function fingerprint(key: Uint8Array): string {
  return 'SHA256:' + encodeBase64(sha256Sync(key), false);
}
