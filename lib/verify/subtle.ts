// WebCrypto's SubtleCrypto as this environment has it, read afresh on each call (a worker, a page
// and node all have `crypto.subtle`; an insecure context or a stripped-down runtime may not). The
// SHA-256 and Ed25519 modules ask here before taking their WebCrypto path; null means the JS path.

/** `globalThis.crypto.subtle`, or null when there is none (no crypto object, or no subtle on it). */
export function subtle(): SubtleCrypto | null {
  const c: unknown = (globalThis as { crypto?: unknown }).crypto;
  if (typeof c !== 'object' || c === null) return null;
  const s: unknown = (c as { subtle?: unknown }).subtle;
  if (typeof s !== 'object' || s === null) return null;
  return s as SubtleCrypto;
}
