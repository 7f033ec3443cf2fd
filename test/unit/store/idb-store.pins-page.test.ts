// One page of the pins read through the store's key (TrustStore.pinsPage): the same rows, in the
// same order, as the whole list sorted (lib/types/pins-page.ts), read with a cursor from the
// offset (never getAll of every pin); unreadable pins are skipped and reported.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pinsPage as sortedPage } from '../../../lib/types/pins-page';
import { freshStore, keyPair, rawOpen } from './helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

const ORIGINS = ['https://b.example', 'http://a.example', 'https://a-b.example', 'https://a.example', 'https://A.example', 'http://127.0.0.1:8080', 'https://z.example', 'https://ä.example'];

describe('pinsPage', () => {
  it('answers the rows the sorted whole list answers, page by page', async () => {
    const { store } = await freshStore();
    for (const [i, o] of ORIGINS.entries()) {
      const k = keyPair(40 + i);
      await store.pinIfAbsent(o, k.key, k.fingerprint, 1 + i);
    }
    const all = await store.listPins();
    for (const [offset, limit] of [
      [0, 3],
      [3, 3],
      [6, 3],
      [0, 100],
      [7, 5],
      [8, 2],
      [20, 2],
    ] as const) {
      const page = await store.pinsPage(offset, limit);
      const expected = sortedPage(all, { offset, limit, filter: '' });
      expect(page?.items).toEqual(expected.items);
      expect(page?.total).toBe(ORIGINS.length);
    }
  });

  it('reads only the page through a cursor: no getAll of the pins', async () => {
    const { store } = await freshStore();
    for (let i = 0; i < 50; i++) {
      const k = keyPair(100 + i);
      await store.pinIfAbsent(`https://site-${String(i).padStart(2, '0')}.example`, k.key, k.fingerprint, 1);
    }
    const getAll = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    const page = await store.pinsPage(10, 5);
    expect(page?.items.map((p) => p.origin)).toEqual([10, 11, 12, 13, 14].map((i) => `https://site-${i}.example`));
    expect(getAll).not.toHaveBeenCalled();
  });

  it('skips an unreadable pin and reports it', async () => {
    const t = await freshStore();
    const k = keyPair(7);
    await t.store.pinIfAbsent('https://good.example', k.key, k.fingerprint, 1);
    const db = await rawOpen(t.factory, t.name);
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('pins', 'readwrite');
      tx.objectStore('pins').put({ origin: 'https://bad.example', key: 42 });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const page = await t.store.pinsPage(0, 10);
    expect(page?.items.map((p) => p.origin)).toEqual(['https://good.example']);
    expect(page?.total).toBe(2);
    expect(t.errors.some((e) => e.code === 'corrupt-record')).toBe(true);
  });
});
