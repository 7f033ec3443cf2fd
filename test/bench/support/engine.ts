// The engine under node: probeOrigin with a fake-indexeddb trust store and either a fetch
// that reads site folders from disk (virtual hosts) or node's own fetch over loopback.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
// idb checks instanceof against the global IDB classes: install the fake ones globally.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { openTrustStore } from '../../../lib/store/idb-store';
import { defaultSettings } from '../../../lib/store/settings';
import type { Clock, FetchLike, OriginReport } from '../../../lib/types';
import type { TrustStore } from '../../../lib/store/store-api';
import type { Sha256 } from '../../../lib/verify/sha256';
import { contentTypeFor } from '../../../scripts/lib/server.mjs';

let dbCounter = 0;

/** A fresh trust store in its own in-memory IndexedDB. */
export async function freshStore(opts: { maxCacheEntries?: number; maxReports?: number } = {}): Promise<{ store: TrustStore; idb: IDBFactory; name: string }> {
  const idb = new IDBFactory();
  const name = `skillpin-bench-${++dbCounter}`;
  const store = await openTrustStore({ name, indexedDB: idb, ...opts });
  return { store, idb, name };
}

/** Serves `http://<host>/<path>` from `sites[host]` on disk; 404 for anything else. Counts requests. */
export function diskFetch(sites: Record<string, string>): { fetch: FetchLike; requests: () => number } {
  let count = 0;
  const fetch: FetchLike = async (url) => {
    count++;
    const u = new URL(url);
    const root = sites[u.host];
    if (root === undefined) return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    const target = normalize(join(root, decodeURIComponent(u.pathname)));
    if (!target.startsWith(normalize(root + sep))) return new Response('not found', { status: 404 });
    try {
      const bytes = await readFile(target);
      return new Response(bytes, { status: 200, headers: { 'Content-Type': contentTypeFor(target), 'Content-Length': String(bytes.byteLength) } });
    } catch {
      return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    }
  };
  return { fetch, requests: () => count };
}

export const realClock: Clock = { now: () => Date.now() };

/** A clock the bench moves by hand (cache lifetimes without waiting). */
export function manualClock(start = Date.UTC(2026, 0, 15, 12)): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export async function probe(origin: string, fetch: FetchLike, store: TrustStore, clock: Clock = realClock, force = false, sha256?: Sha256): Promise<OriginReport> {
  return probeOrigin(origin, { fetch, store, clock, settings: defaultSettings(), ...(sha256 ? { sha256 } : {}) }, { force });
}

/** node's native SHA-256, as the engine takes it from its injected I/O under node. */
export const nativeSha256: Sha256 = async (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());
