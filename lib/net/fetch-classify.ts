// What a final response means (FORMATS.md §9.1, §9.4): the body read under its byte cap, an HTML
// soft 404, a revalidation, or the HTTP status mapped to absent or transient.
import type { FetchResult } from './fetch-result';
import { retryAfterMs } from './cache-policy';
import { sniffsAsHtml } from './html-sniff';
import { capFor } from './limits';
import { discardBody, transient, type RequestCtx } from './fetch-request';

/** The result of the final response `response`, reached at `current` after `redirects` hops. */
export async function classify(c: RequestCtx, response: Response, current: URL, redirects: number): Promise<FetchResult> {
  const finalUrl = current.href;
  const status = response.status;
  const contentType = response.headers.get('content-type');
  const absent = (reason: 'not-found' | 'forbidden' | 'client-error' | 'html' | 'redirect-blocked'): FetchResult => ({
    kind: 'absent',
    url: c.url,
    finalUrl,
    status,
    reason,
    contentType,
    ms: c.ms(),
  });

  if (status >= 200 && status <= 299) {
    const cap = c.opts.cap ?? capFor(c.kind);
    let body: Uint8Array | null;
    try {
      body = await readCapped(response, cap, c.race);
    } catch {
      return transient(c, 'network');
    }
    if (body === null) {
      return { kind: 'too-large', url: c.url, finalUrl, status, limit: cap, contentType, ms: c.ms() };
    }
    if (sniffsAsHtml(body, contentType, c.kind)) return absent('html');
    return {
      kind: 'ok',
      url: c.url,
      finalUrl,
      status,
      contentType,
      bytes: body,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      cacheControl: response.headers.get('cache-control'),
      redirects,
      ms: c.ms(),
    };
  }

  discardBody(response);
  if (status === 304) {
    if (c.etagSent === null && c.lastModifiedSent === null) return absent('client-error');
    return {
      kind: 'not-modified',
      url: c.url,
      finalUrl,
      status: 304,
      ms: c.ms(),
      cacheControl: response.headers.get('cache-control'),
      etag: response.headers.get('etag') ?? c.etagSent,
      lastModified: response.headers.get('last-modified') ?? c.lastModifiedSent,
    };
  }
  if (status === 404 || status === 410) return absent('not-found');
  if (status === 401 || status === 403) return absent('forbidden');
  if (status === 429 || (status >= 500 && status <= 599)) {
    return {
      kind: 'transient',
      url: c.url,
      status,
      reason: status === 429 ? 'rate-limited' : 'server-error',
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), c.opts.clock.now()),
      ms: c.ms(),
    };
  }
  if (status >= 400 && status <= 499) return absent('client-error');
  if (status >= 300 && status <= 399) return absent('redirect-blocked');
  return { kind: 'transient', url: c.url, status: status || null, reason: 'network', retryAfterMs: null, ms: c.ms() };
}

/**
 * Whether the body is sent with a content coding (gzip, br, …). The fetch decodes it, so the
 * stream yields decoded bytes while Content-Length is the encoded length: a length that says
 * nothing about the bytes the cap is about.
 */
function isEncoded(response: Response): boolean {
  const coding = response.headers.get('content-encoding');
  return coding !== null && coding.trim() !== '' && coding.trim().toLowerCase() !== 'identity';
}

/**
 * The whole body, or null when it exceeds `cap`. The cap counts the bytes the stream yields,
 * which are decoded bytes (FORMATS.md §9.1): a small gzip body that inflates past the cap is
 * over it. A declared Content-Length over the cap refuses the body before reading only when no
 * content coding applies. Rejects on stream errors and aborts.
 */
async function readCapped(
  response: Response,
  cap: number,
  guard: <T>(p: Promise<T>) => Promise<T>,
): Promise<Uint8Array | null> {
  const declared = response.headers.get('content-length');
  if (!isEncoded(response) && declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > cap) {
    discardBody(response);
    return null;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await guard(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
