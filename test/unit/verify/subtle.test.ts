// The one reader of WebCrypto's SubtleCrypto for lib/verify (sha256.ts, ed25519.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subtle } from '../../../lib/verify/subtle';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('subtle', () => {
  it('is the environment’s crypto.subtle', () => {
    expect(subtle()).toBe(globalThis.crypto.subtle);
  });

  it('is null without a crypto object, without subtle on it, or with one that is no object', () => {
    vi.stubGlobal('crypto', undefined);
    expect(subtle()).toBeNull();
    vi.stubGlobal('crypto', {});
    expect(subtle()).toBeNull();
    vi.stubGlobal('crypto', { subtle: null });
    expect(subtle()).toBeNull();
    vi.stubGlobal('crypto', { subtle: 'subtle' });
    expect(subtle()).toBeNull();
  });

  it('is read afresh on each call', () => {
    const fake = { digest: () => Promise.resolve(new ArrayBuffer(32)) };
    vi.stubGlobal('crypto', { subtle: fake });
    expect(subtle()).toBe(fake);
    vi.stubGlobal('crypto', {});
    expect(subtle()).toBeNull();
  });
});
