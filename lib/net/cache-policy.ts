// Lifetimes of probe-cache entries and retry delays (FORMATS.md §9.6, PRODUCT.md §2.2, §2.4).
import { LIMITS } from './limits';

const BACKOFF_BASE_MS = 60_000;
const BACKOFF_CAP_MS = 60 * 60_000;

/**
 * Lifetime of a positive cache entry: `max-age` clamped to [5 min, 24 h].
 * `no-store`, `no-cache`, `max-age=0`, a missing or unparseable header all give the 5-minute floor.
 * When `max-age` appears more than once the smallest value counts.
 */
export function positiveTtlMs(cacheControl: string | null): number {
  if (cacheControl === null) return LIMITS.minPositiveTtlMs;
  let maxAgeSeconds: number | null = null;
  for (const raw of cacheControl.split(',')) {
    const directive = raw.trim();
    const eq = directive.indexOf('=');
    const name = (eq < 0 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    if (name === 'no-store' || name === 'no-cache') return LIMITS.minPositiveTtlMs;
    if (name !== 'max-age' || eq < 0) continue;
    let value = directive.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!/^\d+$/.test(value)) continue;
    const seconds = Number(value);
    maxAgeSeconds = maxAgeSeconds === null ? seconds : Math.min(maxAgeSeconds, seconds);
  }
  if (maxAgeSeconds === null) return LIMITS.minPositiveTtlMs;
  return Math.min(LIMITS.maxPositiveTtlMs, Math.max(LIMITS.minPositiveTtlMs, maxAgeSeconds * 1000));
}

/**
 * Delay before the next request after `failures` consecutive transient failures
 * (429, 5xx, timeout, network error): 1 min, 2 min, 4 min, … doubling, capped at 1 h.
 * Zero (or a nonsensical count) means no delay.
 */
export function backoffMs(failures: number): number {
  if (Number.isNaN(failures) || failures < 1) return 0;
  const exponent = Math.min(Math.floor(failures) - 1, 30);
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** exponent);
}

/**
 * A `Retry-After` header (delta-seconds or an HTTP date) as a delay from `now`, capped at 24 h.
 * A date in the past gives 0; a missing or unparseable header gives null.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (value === '') return null;
  if (/^\d+$/.test(value)) return Math.min(LIMITS.maxPositiveTtlMs, Number(value) * 1000);
  // HTTP dates always name a weekday and a month; a bare number was handled above.
  if (!/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.min(LIMITS.maxPositiveTtlMs, Math.max(0, at - now));
}
