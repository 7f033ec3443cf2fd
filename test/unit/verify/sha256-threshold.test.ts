// The SHA-256 backend threshold is chosen per environment; the digests never depend on it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { CHROMIUM_WEBCRYPTO_MIN_BYTES, NODE_WEBCRYPTO_MIN_BYTES, WEBCRYPTO_MIN_BYTES, sha256WithThreshold, toHex, webCryptoMinBytesFor } from '../../../lib/verify/sha256';

const nodeHex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

function bytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + 17) & 0xff;
  return b;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('webCryptoMinBytesFor', () => {
  it('node keeps the node threshold, whatever its navigator says', () => {
    expect(webCryptoMinBytesFor(globalThis)).toBe(NODE_WEBCRYPTO_MIN_BYTES);
    expect(WEBCRYPTO_MIN_BYTES).toBe(NODE_WEBCRYPTO_MIN_BYTES);
    expect(webCryptoMinBytesFor({ process: { versions: { node: '20.20.2' } }, navigator: { userAgent: CHROME_UA } })).toBe(NODE_WEBCRYPTO_MIN_BYTES);
  });

  it('Chromium (service worker or page) gets the Chromium threshold, by brand or by user agent', () => {
    expect(webCryptoMinBytesFor({ navigator: { userAgent: CHROME_UA } })).toBe(CHROMIUM_WEBCRYPTO_MIN_BYTES);
    expect(webCryptoMinBytesFor({ navigator: { userAgent: HEADLESS_UA } })).toBe(CHROMIUM_WEBCRYPTO_MIN_BYTES);
    expect(
      webCryptoMinBytesFor({
        navigator: {
          userAgent: 'x',
          userAgentData: {
            brands: [
              { brand: 'Not.A/Brand', version: '99' },
              { brand: 'Chromium', version: '156' },
            ],
          },
        },
      }),
    ).toBe(CHROMIUM_WEBCRYPTO_MIN_BYTES);
  });

  it('an engine that was not measured, or a global without the usual fields, keeps the node threshold', () => {
    for (const g of [
      { navigator: { userAgent: FIREFOX_UA } },
      { navigator: { userAgent: SAFARI_UA } },
      { navigator: {} },
      { navigator: { userAgent: 42, userAgentData: { brands: 'Chromium' } } },
      { process: { versions: {} } },
      { process: null, navigator: null },
      {},
      null,
      undefined,
      'globalThis',
    ]) {
      expect(webCryptoMinBytesFor(g), JSON.stringify(g)).toBe(NODE_WEBCRYPTO_MIN_BYTES);
    }
  });

  it('the Chromium threshold is below 1 KiB (WebCrypto is measured faster there from about 100 bytes on)', () => {
    expect(CHROMIUM_WEBCRYPTO_MIN_BYTES).toBeGreaterThan(0);
    expect(CHROMIUM_WEBCRYPTO_MIN_BYTES).toBeLessThanOrEqual(1024);
  });
});

describe('sha256WithThreshold', () => {
  it('gives the same digest on both sides of either threshold', async () => {
    for (const threshold of [CHROMIUM_WEBCRYPTO_MIN_BYTES, NODE_WEBCRYPTO_MIN_BYTES, 0]) {
      for (const n of [0, 1, 63, 64, 255, 256, 257, 1024, 8191, 8192, 8193, 70_000]) {
        const b = bytes(n);
        expect(toHex(await sha256WithThreshold(b, threshold)), `${threshold}/${n}`).toBe(nodeHex(b));
      }
    }
  });

  it('uses WebCrypto only from the threshold on, and the JS digest below it or when WebCrypto fails', async () => {
    const real = globalThis.crypto.subtle;
    const digest = vi.fn((alg: AlgorithmIdentifier, data: BufferSource) => real.digest(alg, data));
    vi.stubGlobal('crypto', { subtle: { digest } });
    const b = bytes(CHROMIUM_WEBCRYPTO_MIN_BYTES);
    expect(toHex(await sha256WithThreshold(b.subarray(1), CHROMIUM_WEBCRYPTO_MIN_BYTES))).toBe(nodeHex(b.subarray(1)));
    expect(digest).not.toHaveBeenCalled();
    expect(toHex(await sha256WithThreshold(b, CHROMIUM_WEBCRYPTO_MIN_BYTES))).toBe(nodeHex(b));
    expect(digest).toHaveBeenCalledTimes(1);
    digest.mockImplementation(() => Promise.reject(new DOMException('gone', 'OperationError')));
    expect(toHex(await sha256WithThreshold(b, CHROMIUM_WEBCRYPTO_MIN_BYTES))).toBe(nodeHex(b));
  });

  it('in a Chromium-like global (no node process) the module picks the Chromium threshold at load', async () => {
    vi.resetModules();
    vi.stubGlobal('process', undefined);
    vi.stubGlobal('navigator', { userAgent: CHROME_UA });
    let picked: number;
    try {
      picked = (await import('../../../lib/verify/sha256')).WEBCRYPTO_MIN_BYTES;
    } finally {
      vi.unstubAllGlobals();
    }
    expect(picked).toBe(CHROMIUM_WEBCRYPTO_MIN_BYTES);
  });
});
