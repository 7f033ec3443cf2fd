import { describe, expect, it } from 'vitest';
import type { ProbeCacheEntry } from '../../../lib/store/records';
import { freshStore, makeCacheEntry, plant, rawAll } from './helpers';

const url = (host: string, path = '/llms.txt'): string => `https://${host}${path}`;

describe('probe cache', () => {
  it('round-trips an entry with its body as a Uint8Array and optional fields', async () => {
    const { store } = await freshStore();
    const entry: ProbeCacheEntry = {
      ...makeCacheEntry(url('a.example'), true, 100, 400),
      etag: '"abc"',
      lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
      failures: 2,
      retryAt: 900,
      reason: 'transient',
    };
    await store.putCache(entry);
    const got = await store.getCache(entry.url);
    expect(got).toEqual(entry);
    expect(got?.bytes).toBeInstanceOf(Uint8Array);
    expect(await store.getCache(url('missing.example'))).toBeNull();
  });

  it('refuses a malformed entry and writes nothing', async () => {
    const { store } = await freshStore();
    const bad = { ...makeCacheEntry(url('a.example'), true, 1, 2), kind: 'webpage' } as unknown as ProbeCacheEntry;
    await expect(store.putCache(bad)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.putCache({ ...makeCacheEntry(url('a.example'), true, 1, 2), positive: 1 as unknown as boolean })).rejects.toMatchObject({
      code: 'invalid-input',
    });
    expect(await store.getCache(url('a.example'))).toBeNull();
  });

  it('over the bound, evicts negative entries first, oldest storedAt first', async () => {
    const { store } = await freshStore({ maxCacheEntries: 4 });
    await store.putCache(makeCacheEntry(url('pos1.example'), true, 1, 1000));
    await store.putCache(makeCacheEntry(url('neg-new.example'), false, 300, 5000));
    await store.putCache(makeCacheEntry(url('neg-old.example'), false, 100, 5000));
    await store.putCache(makeCacheEntry(url('neg-mid.example'), false, 200, 5000));
    await store.putCache(makeCacheEntry(url('pos2.example'), true, 400, 2000));
    expect(await store.getCache(url('neg-old.example'))).toBeNull();
    for (const host of ['pos1.example', 'neg-new.example', 'neg-mid.example', 'pos2.example']) {
      expect(await store.getCache(url(host)), host).not.toBeNull();
    }
    await store.putCache(makeCacheEntry(url('pos3.example'), true, 500, 3000));
    expect(await store.getCache(url('neg-mid.example'))).toBeNull();
    expect(await store.getCache(url('neg-new.example'))).not.toBeNull();
  });

  it('evicts positive entries only when no negative is left, earliest expiry first', async () => {
    const { store } = await freshStore({ maxCacheEntries: 2 });
    await store.putCache(makeCacheEntry(url('late.example'), true, 1, 9000));
    await store.putCache(makeCacheEntry(url('soon.example'), true, 2, 3000));
    await store.putCache(makeCacheEntry(url('neg.example'), false, 3, 4000));
    // The negative is the only one that goes, though it is the newest.
    expect(await store.getCache(url('neg.example'))).not.toBeNull();
    expect(await store.getCache(url('soon.example'))).toBeNull();
    expect(await store.getCache(url('late.example'))).not.toBeNull();
    await store.putCache(makeCacheEntry(url('other.example'), true, 4, 1));
    expect(await store.getCache(url('neg.example'))).toBeNull();
    expect(await store.getCache(url('late.example'))).not.toBeNull();
    expect(await store.getCache(url('other.example'))).not.toBeNull();
  });

  it('never evicts the entry just written', async () => {
    const { store } = await freshStore({ maxCacheEntries: 1 });
    await store.putCache(makeCacheEntry(url('a.example'), false, 500, 1000));
    await store.putCache(makeCacheEntry(url('b.example'), false, 10, 1000));
    expect(await store.getCache(url('b.example'))).not.toBeNull();
    expect(await store.getCache(url('a.example'))).toBeNull();
  });

  it('replacing an entry keeps one record and updates its eviction order', async () => {
    const { store, factory, name } = await freshStore({ maxCacheEntries: 2 });
    await store.putCache(makeCacheEntry(url('a.example'), false, 100, 1000));
    await store.putCache(makeCacheEntry(url('b.example'), false, 200, 1000));
    // a becomes positive: now b is the only negative and goes first.
    await store.putCache(makeCacheEntry(url('a.example'), true, 300, 2000));
    await store.putCache(makeCacheEntry(url('c.example'), true, 400, 3000));
    expect(await store.getCache(url('b.example'))).toBeNull();
    expect(await store.getCache(url('a.example'))).toMatchObject({ positive: true });
    expect(await rawAll(factory, name, 'cache')).toHaveLength(2);
  });

  it('deleteCacheForOrigin deletes every entry of that origin only', async () => {
    const { store } = await freshStore();
    await store.putCache(makeCacheEntry(url('a.example'), true, 1, 2));
    await store.putCache(makeCacheEntry(url('a.example', '/.well-known/agent-skills/index.json'), false, 1, 2));
    await store.putCache(makeCacheEntry(url('b.example'), true, 1, 2));
    await store.deleteCacheForOrigin('https://a.example');
    expect(await store.getCache(url('a.example'))).toBeNull();
    expect(await store.getCache(url('a.example', '/.well-known/agent-skills/index.json'))).toBeNull();
    expect(await store.getCache(url('b.example'))).not.toBeNull();
  });

  it('a corrupt record is skipped, reported, kept, and never evicted', async () => {
    const { store, factory, name, errors } = await freshStore({ maxCacheEntries: 1 });
    const broken = { url: url('broken.example'), origin: 'https://broken.example', positive: 'maybe', storedAt: 0 };
    await plant(factory, name, 'cache', broken);
    expect(await store.getCache(broken.url)).toBeNull();
    expect(errors.map((e) => [e.code, e.store])).toEqual([['corrupt-record', 'cache']]);
    await store.putCache(makeCacheEntry(url('a.example'), false, 1, 2));
    await store.putCache(makeCacheEntry(url('b.example'), false, 2, 3));
    const urls = ((await rawAll(factory, name, 'cache')) as { url: string }[]).map((r) => r.url).sort();
    expect(urls).toEqual([url('b.example'), broken.url].sort());
  });
});
