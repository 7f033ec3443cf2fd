// 7a. Storage: bytes in IndexedDB per origin probed, 10,000 origins of which most publish
// nothing, and how eviction bounds the growth. The engine under node with fake-indexeddb;
// bytes are the structured-clone size of every stored record plus its key.
import { test } from '@playwright/test';
import { serialize } from 'node:v8';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { freshStore, manualClock, probe } from './support/engine';
import { makeSite } from './support/sites';
import { contentTypeFor } from '../../scripts/lib/server.mjs';
import type { FetchLike } from '../../lib/types';
import { DEFAULT_MAX_CACHE_ENTRIES, DEFAULT_MAX_REPORTS } from '../../lib/store/idb-store';
import { fmt } from './support/stats';
import { reproCommand, writeSection, type TargetCheck } from './support/results';

const ORIGINS = Number(process.env.BENCH_STORAGE_ORIGINS ?? 10_000);
/** One origin in this many publishes 5 signed skills; the rest publish nothing. */
const PUBLISHER_EVERY = 50;

function filesOf(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set('/' + relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

async function storeBytes(idb: IDBFactory, name: string): Promise<{ total: number; byStore: Record<string, { records: number; bytes: number }> }> {
  const db: IDBDatabase = await new Promise((resolve, reject) => {
    const r = idb.open(name);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const byStore: Record<string, { records: number; bytes: number }> = {};
  let total = 0;
  for (const storeName of Array.from(db.objectStoreNames)) {
    const acc = { records: 0, bytes: 0 };
    await new Promise<void>((resolve, reject) => {
      const req = db.transaction(storeName).objectStore(storeName).openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return resolve();
        acc.records++;
        acc.bytes += serialize(c.value).byteLength + serialize(c.primaryKey).byteLength;
        c.continue();
      };
      req.onerror = () => reject(req.error);
    });
    byStore[storeName] = acc;
    total += acc.bytes;
  }
  db.close();
  return { total, byStore };
}

test('IndexedDB bytes per origin probed, bounded by eviction', async () => {
  test.setTimeout(600_000);
  const started = Date.now();
  const site = filesOf(makeSite(5));
  const fetch: FetchLike = async (url) => {
    const u = new URL(url);
    const publishes = u.hostname.startsWith('pub-');
    const bytes = publishes ? site.get(u.pathname) : undefined;
    if (!bytes) return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    return new Response(Uint8Array.from(bytes), { status: 200, headers: { 'Content-Type': contentTypeFor(u.pathname), ETag: `"${bytes.byteLength}"` } });
  };
  const { store, idb, name } = await freshStore();
  const clock = manualClock();
  const rows: (string | number)[][] = [];
  const raw: Record<string, unknown> = {};
  const checkpoints = new Set([100, 1000, 2500, 5000, 7500, ORIGINS]);
  const t0 = performance.now();
  for (let i = 1; i <= ORIGINS; i++) {
    const host = i % PUBLISHER_EVERY === 0 ? `pub-${i}.localhost` : `plain-${i}.localhost`;
    clock.advance(1000);
    await probe(`http://${host}`, fetch, store, clock);
    if (checkpoints.has(i)) {
      const b = await storeBytes(idb, name);
      const counts = Object.entries(b.byStore)
        .filter(([, v]) => v.records > 0)
        .map(([k, v]) => `${k} ${v.records} (${fmt(v.bytes / 1024, 0)} KiB)`)
        .join(', ');
      rows.push([i.toLocaleString('en'), `${fmt(b.total / 1024 / 1024, 2)} MiB`, `${fmt(b.total / i, 0)} B`, counts, reproCommand('storage.bench.ts')]);
      raw[`at-${i}`] = b;
    }
  }
  const ms = performance.now() - t0;
  store.close();
  const last = raw[`at-${ORIGINS}`] as { total: number; byStore: Record<string, { records: number }> };
  const mid = raw['at-5000'] as { total: number } | undefined;
  const targets: TargetCheck[] = [
    {
      what: `IndexedDB after ${ORIGINS.toLocaleString('en')} origins (1 in ${PUBLISHER_EVERY} publishes 5 signed skills)`,
      target: `bounded by eviction (cache ≤ ${DEFAULT_MAX_CACHE_ENTRIES.toLocaleString('en')} entries, reports ≤ ${DEFAULT_MAX_REPORTS.toLocaleString('en')})`,
      measured: `${fmt(last.total / 1024 / 1024, 2)} MiB, ${fmt(last.total / ORIGINS, 0)} B per origin probed; cache ${last.byStore['cache']?.records ?? 0} entries, reports ${last.byStore['reports']?.records ?? 0}${mid ? `; growth 5,000 → ${ORIGINS.toLocaleString('en')}: ${fmt((last.total - mid.total) / 1024, 0)} KiB` : ''}`,
      met: (last.byStore['cache']?.records ?? 0) <= DEFAULT_MAX_CACHE_ENTRIES && (last.byStore['reports']?.records ?? 0) <= DEFAULT_MAX_REPORTS,
    },
  ];
  writeSection({
    id: '7a-storage',
    title: '7a. IndexedDB bytes per origin probed (engine under node, fake-indexeddb)',
    columns: ['origins probed', 'stored', 'per origin probed', 'records (bytes) per store', 'reproduce'],
    rows,
    targets,
    notes: [
      `${ORIGINS.toLocaleString('en')} origins probed one after the other, one second apart on a hand-moved clock; one in ${PUBLISHER_EVERY} publishes 5 signed skills, the rest answer 404. Bytes = v8 structured-clone size of each record plus its key (what IndexedDB serialises; the browser's own on-disk figure adds LevelDB overhead and compression).`,
      `Probing took ${fmt(ms / ORIGINS, 2)} ms per origin here (fake-indexeddb, in-process fetch).`,
    ],
    raw,
    seconds: (Date.now() - started) / 1000,
  });
});
