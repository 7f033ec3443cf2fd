import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/store/errors';
import { openTrustStore } from '../../../lib/store/idb-store';
import { DB_NAME, SCHEMA_VERSION, upgrade } from '../../../lib/store/schema';
import type { UpgradeDb, UpgradeTx } from '../../../lib/store/schema';
import { wrap } from 'idb';
import type { Pin } from '../../../lib/types';
import { buildV1Database, openV1 } from '../../fixtures/trust/v1-database';
import { V1_BYTES, V1_DIGEST_LF, V1_FINGERPRINT, V1_ORIGIN, V1_SKILL_URL, v1Sample } from '../../fixtures/trust/v1-sample';
import { makeCacheEntry, rawAll, rawOpen } from './helpers';

interface Shape {
  [store: string]: { keyPath: string | string[] | null; indexes: Record<string, string | string[]> };
}

async function shapeOf(factory: IDBFactory, name: string): Promise<{ version: number; shape: Shape }> {
  const db = await rawOpen(factory, name);
  try {
    const names = Array.from(db.objectStoreNames).sort();
    const shape: Shape = {};
    if (names.length === 0) return { version: db.version, shape };
    const tx = db.transaction(names, 'readonly');
    for (const n of names) {
      const store = tx.objectStore(n);
      const indexes: Record<string, string | string[]> = {};
      for (const i of Array.from(store.indexNames)) indexes[i] = store.index(i).keyPath;
      shape[n] = { keyPath: store.keyPath, indexes };
    }
    return { version: db.version, shape };
  } finally {
    db.close();
  }
}

/** Opens `name` at `version` running only the schema's own steps up to it. */
function openWithSchemaSteps(factory: IDBFactory, name: string, version: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = (event) => {
      const tx = wrap(request.transaction as IDBTransaction) as unknown as UpgradeTx;
      tx.done.catch(() => undefined);
      void upgrade(wrap(request.result) as unknown as UpgradeDb, event.oldVersion, event.newVersion, tx).catch(() => undefined);
    };
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

describe('schema', () => {
  it('names the database skillpin and is at version 5', () => {
    expect(DB_NAME).toBe('skillpin');
    expect(SCHEMA_VERSION).toBe(5);
  });

  it("the schema's v1 step builds exactly the frozen v1 fixture", async () => {
    const factory = new IDBFactory();
    await openWithSchemaSteps(factory, 'from-schema', 1);
    const fixtureDb = await openV1(factory, 'from-fixture');
    fixtureDb.close();
    const fromSchema = await shapeOf(factory, 'from-schema');
    const fromFixture = await shapeOf(factory, 'from-fixture');
    expect(fromSchema.version).toBe(1);
    expect(fromSchema.shape).toEqual(fromFixture.shape);
  });

  it('a fresh database gets the current shape', async () => {
    const factory = new IDBFactory();
    const store = await openTrustStore({ name: 'fresh', indexedDB: factory });
    store.close();
    const { version, shape } = await shapeOf(factory, 'fresh');
    expect(version).toBe(SCHEMA_VERSION);
    expect(Object.keys(shape).sort()).toEqual(['approvals', 'cache', 'keys', 'pins', 'reports', 'settings', 'skills', 'totals']);
    expect(shape.cache?.indexes).toEqual({ 'by-origin': 'origin', 'by-evict': 'evictKey' });
    expect(shape.keys).toEqual({ keyPath: ['origin', 'fingerprint'], indexes: { 'by-origin': 'origin' } });
    expect(shape.settings?.keyPath).toBeNull();
    expect(shape.skills?.indexes).toMatchObject({ 'by-storedAt-size': ['storedAt', 'size'], 'by-origin-storedAt-size': ['origin', 'storedAt', 'size'] });
    expect(shape.skills?.keyPath).toEqual(['origin', 'url', 'digestLf', 'filesKey']);
    expect(shape.skills?.indexes['by-record-size']).toEqual(['origin', 'url', 'digestLf', 'filesKey', 'storedAt', 'size']);
    expect(shape.totals).toEqual({ keyPath: null, indexes: {} });
  });

  it('v3 gives every readable skill record its byte count', async () => {
    const factory = new IDBFactory();
    await buildV1Database(factory, 'sized', v1Sample());
    (await openTrustStore({ name: 'sized', indexedDB: factory })).close();
    const records = (await rawAll(factory, 'sized', 'skills')) as Record<string, unknown>[];
    const skill = records.find((r) => r.digestLf === V1_DIGEST_LF);
    expect(skill?.size).toBe(V1_BYTES.byteLength);
  });

  it('a fresh database and a migrated v1 database have the same shape', async () => {
    const factory = new IDBFactory();
    (await openTrustStore({ name: 'fresh', indexedDB: factory })).close();
    await buildV1Database(factory, 'migrated', {});
    (await openTrustStore({ name: 'migrated', indexedDB: factory })).close();
    expect((await shapeOf(factory, 'migrated')).shape).toEqual((await shapeOf(factory, 'fresh')).shape);
  });
});

describe('migration v1 → current', () => {
  it('keeps every record and moves settings into their own store', async () => {
    const factory = new IDBFactory();
    const sample = v1Sample();
    await buildV1Database(factory, 'old', sample);
    const errors: StoreError[] = [];
    const store = await openTrustStore({ name: 'old', indexedDB: factory, onError: (e) => errors.push(e) });

    expect(await store.getPin(V1_ORIGIN)).toEqual(sample.pins?.[0]);
    expect(await store.listApprovals()).toEqual(sample.approvals);
    const skill = await store.getSkill(V1_ORIGIN, V1_SKILL_URL, V1_DIGEST_LF);
    expect(skill?.bytes).toBeInstanceOf(Uint8Array);
    expect(skill?.bytes).toEqual(V1_BYTES);
    expect((await store.getLatestSkill(V1_ORIGIN, V1_SKILL_URL))?.digestLf).toBe(V1_DIGEST_LF);
    expect(await store.getCache(`${V1_ORIGIN}/llms.txt`)).toEqual(sample.cache?.[0]);
    expect(await store.getCache('https://newer.example.org/llms.txt')).toEqual(sample.cache?.[2]);
    expect((await store.getReport(V1_ORIGIN))?.finishedAt).toBe(5000);
    // A v1 record predates chatSites, the desktop fields and shortHeader: it reads with their defaults, every stored field kept.
    expect(await store.getSettings()).toEqual({ ...(sample.settings as object), chatSites: [], desktopMirror: false, desktopAgents: [], desktopConfirmed: [], shortHeader: false });
    expect(errors).toEqual([]);
    store.close();

    const { shape } = await shapeOf(factory, 'old');
    expect(shape.meta).toBeUndefined();
    const settingsRecords = await rawAll(factory, 'old', 'settings');
    expect(settingsRecords).toEqual([sample.settings]);
  });

  it('gives every readable cache record its eviction key and keeps the unreadable one as it was', async () => {
    const factory = new IDBFactory();
    const sample = v1Sample();
    await buildV1Database(factory, 'old', sample);
    (await openTrustStore({ name: 'old', indexedDB: factory })).close();
    const records = (await rawAll(factory, 'old', 'cache')) as Record<string, unknown>[];
    const byUrl = new Map(records.map((r) => [r.url, r]));
    expect(byUrl.get(`${V1_ORIGIN}/llms.txt`)?.evictKey).toEqual([1, 9000]);
    expect(byUrl.get('https://old.example.org/llms.txt')?.evictKey).toEqual([0, 100]);
    expect(byUrl.get('https://broken.example.org/llms.txt')).toEqual(sample.cache?.[3]);
    expect(records).toHaveLength(4);
  });

  it('migrated cache entries are evicted in the new order (oldest negative first)', async () => {
    const factory = new IDBFactory();
    await buildV1Database(factory, 'old', v1Sample());
    // The sample holds 4 records; a bound of 4 evicts exactly one when a fifth arrives.
    const store = await openTrustStore({ name: 'old', indexedDB: factory, maxCacheEntries: 4 });
    await store.putCache(makeCacheEntry('https://fresh.example.net/llms.txt', true, 10_000, 20_000));
    expect(await store.getCache('https://old.example.org/llms.txt')).toBeNull();
    expect(await store.getCache('https://newer.example.org/llms.txt')).not.toBeNull();
    expect(await store.getCache(`${V1_ORIGIN}/llms.txt`)).not.toBeNull();
    store.close();
    expect(await rawAll(factory, 'old', 'cache')).toHaveLength(4);
  });

  it('an empty v1 database (no settings written) migrates to defaults', async () => {
    const factory = new IDBFactory();
    await buildV1Database(factory, 'empty', {});
    const store = await openTrustStore({ name: 'empty', indexedDB: factory });
    expect((await store.getSettings()).legacyIndex).toBe(true);
    expect(await store.listPins()).toEqual([]);
    store.close();
  });

  it('a failed migration leaves the v1 database and its data intact', async () => {
    const factory = new IDBFactory();
    // A damaged v1 database without the cache store: the v2 step cannot run.
    await buildV1Database(factory, 'damaged', v1Sample(), { omitStores: ['cache'] });
    const err = await openTrustStore({ name: 'damaged', indexedDB: factory }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('version-error');
    const { version, shape } = await shapeOf(factory, 'damaged');
    expect(version).toBe(1);
    expect(shape.meta).toBeDefined();
    expect(shape.settings).toBeUndefined();
    const pins = (await rawAll(factory, 'damaged', 'pins')) as { fingerprint: string }[];
    expect(pins.map((p) => p.fingerprint)).toEqual([V1_FINGERPRINT]);
  });

  it('a database newer than this code is a version-error, not a crash', async () => {
    const factory = new IDBFactory();
    await new Promise<void>((resolve, reject) => {
      const request = factory.open('future', SCHEMA_VERSION + 5);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const err = await openTrustStore({ name: 'future', indexedDB: factory }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('version-error');
  });
});

describe('migration v3 → v4 (key history)', () => {
  /** A v3 database built by the schema's own steps, with records planted as v3 wrote them. */
  async function buildV2(factory: IDBFactory, name: string): Promise<void> {
    await openWithSchemaSteps(factory, name, 3);
    const sample = v1Sample();
    const db = await rawOpen(factory, name);
    try {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(['pins', 'approvals', 'skills', 'cache', 'reports', 'settings'], 'readwrite');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        for (const p of sample.pins ?? []) tx.objectStore('pins').put(p);
        // An unreadable pin: kept as it is, and no history entry is made up for it.
        tx.objectStore('pins').put({ origin: 'https://broken.example.org', key: 7 });
        for (const a of sample.approvals ?? []) tx.objectStore('approvals').put(a);
        for (const s of sample.skills ?? []) tx.objectStore('skills').put(s);
        const entry = makeCacheEntry('https://x.example/llms.txt', true, 10, 20);
        tx.objectStore('cache').put({ ...entry, evictKey: [1, 20] });
        tx.objectStore('settings').put(sample.settings, 'settings');
      });
    } finally {
      db.close();
    }
  }

  it('keeps every record and gives every readable pin its history entry', async () => {
    const factory = new IDBFactory();
    await buildV2(factory, 'v2');
    const before: Record<string, unknown[]> = {};
    for (const s of ['pins', 'approvals', 'skills', 'cache', 'settings']) before[s] = await rawAll(factory, 'v2', s);

    const errors: StoreError[] = [];
    const store = await openTrustStore({ name: 'v2', indexedDB: factory, onError: (e) => errors.push(e) });
    const pin = v1Sample().pins?.[0] as Pin | undefined;
    expect(await store.getKeyHistory(V1_ORIGIN)).toEqual([
      { origin: V1_ORIGIN, fingerprint: V1_FINGERPRINT, key: pin?.key, firstSeen: pin?.firstSeen, lastSeen: pin?.lastSeen, state: 'pinned', revokedAt: null },
    ]);
    expect(await store.getKeyHistory('https://broken.example.org')).toEqual([]);
    expect(errors).toEqual([]);
    store.close();

    const { version, shape } = await shapeOf(factory, 'v2');
    expect(version).toBe(SCHEMA_VERSION);
    expect(shape.keys?.indexes).toEqual({ 'by-origin': 'origin' });
    for (const s of ['pins', 'approvals', 'cache', 'settings']) expect(await rawAll(factory, 'v2', s)).toEqual(before[s]);
    // v5 gives every skill record its files key and changes nothing else of it.
    expect(await rawAll(factory, 'v2', 'skills')).toEqual((before.skills as object[]).map((r) => ({ ...r, filesKey: '' })));
  });

  it('a migrated database and a fresh one have the same shape', async () => {
    const factory = new IDBFactory();
    await buildV2(factory, 'v2');
    (await openTrustStore({ name: 'v2', indexedDB: factory })).close();
    (await openTrustStore({ name: 'fresh', indexedDB: factory })).close();
    expect((await shapeOf(factory, 'v2')).shape).toEqual((await shapeOf(factory, 'fresh')).shape);
  });

  it('a migrated pin refuses a key revoked after the upgrade', async () => {
    const factory = new IDBFactory();
    await buildV2(factory, 'v2');
    const store = await openTrustStore({ name: 'v2', indexedDB: factory });
    const pin = v1Sample().pins?.[0] as Pin | undefined;
    await store.revokeKey(V1_ORIGIN, V1_FINGERPRINT, 9_000);
    expect((await store.pinIfAbsent(V1_ORIGIN, pin?.key ?? '', V1_FINGERPRINT, 9_500)).result).toBe('revoked');
    store.close();
  });
});

describe('migration v4 → v5 (files key, byte totals)', () => {
  const ORIGIN_A = 'https://a.example';
  const ORIGIN_B = 'https://b.example';
  const archiveRecord = {
    origin: ORIGIN_A,
    url: `${ORIGIN_A}/skill.zip`,
    digestLf: 'c'.repeat(64),
    digestRaw: 'c'.repeat(64),
    bytes: new Uint8Array(100),
    storedAt: 20,
    size: 130,
    archive: {
      sha256: 'd'.repeat(64),
      format: 'zip',
      entries: [
        { path: 'SKILL.md', size: 100, type: 'file' },
        { path: 'run.sh', size: 30, type: 'file' },
      ],
      files: [{ path: 'run.sh', bytes: new Uint8Array(30) }],
    },
  };
  const records = [
    { origin: ORIGIN_A, url: `${ORIGIN_A}/a/SKILL.md`, digestLf: 'a'.repeat(64), digestRaw: 'a'.repeat(64), bytes: new Uint8Array(50), storedAt: 10, size: 50 },
    archiveRecord,
    { origin: ORIGIN_B, url: `${ORIGIN_B}/b/SKILL.md`, digestLf: 'b'.repeat(64), digestRaw: 'b'.repeat(64), bytes: new Uint8Array(7), storedAt: 30, size: 7 },
    // Unreadable as v3 found it (no size): kept, and counted by no total, as no size index counts it.
    { origin: ORIGIN_B, url: `${ORIGIN_B}/c/SKILL.md`, digestLf: 'e'.repeat(64), digestRaw: 'e', bytes: 'broken', storedAt: 40 },
  ];

  async function buildV4(factory: IDBFactory, name: string): Promise<void> {
    await openWithSchemaSteps(factory, name, 4);
    const db = await rawOpen(factory, name);
    try {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(['skills', 'approvals'], 'readwrite');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        for (const r of records) tx.objectStore('skills').put(r);
        tx.objectStore('approvals').put({
          origin: ORIGIN_A,
          url: archiveRecord.url,
          digestLf: archiveRecord.digestLf,
          digestRaw: archiveRecord.digestRaw,
          keyFingerprint: null,
          statusAtApproval: 'verified',
          name: 'z',
          approvedAt: 21,
        });
      });
    } finally {
      db.close();
    }
  }

  it('re-keys every record with its files key, keeps it whole, and computes the byte totals', async () => {
    const factory = new IDBFactory();
    await buildV4(factory, 'v4');
    const store = await openTrustStore({ name: 'v4', indexedDB: factory });
    store.close();
    const { version, shape } = await shapeOf(factory, 'v4');
    expect(version).toBe(5);
    expect(shape.skills?.keyPath).toEqual(['origin', 'url', 'digestLf', 'filesKey']);
    const raws = (await rawAll(factory, 'v4', 'skills')) as Record<string, unknown>[];
    const byUrl = (u: string) => raws.find((r) => r.url === u);
    for (const r of records) expect(byUrl(r.url)).toEqual({ ...r, filesKey: '' });
    const db = await rawOpen(factory, 'v4');
    try {
      const totals = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const out: Record<string, unknown> = {};
        const tx = db.transaction('totals', 'readonly');
        const req = tx.objectStore('totals').openCursor();
        req.onsuccess = () => {
          const c = req.result;
          if (!c) return resolve(out);
          out[String(c.key)] = c.value;
          c.continue();
        };
        req.onerror = () => reject(req.error);
      });
      expect(totals).toEqual({ [ORIGIN_A]: { bytes: 180 }, [ORIGIN_B]: { bytes: 7 }, '*': { bytes: 187 } });
    } finally {
      db.close();
    }
  });

  it('an archive record of v4 is still found under its SKILL.md digest, with no file-set digest', async () => {
    const factory = new IDBFactory();
    await buildV4(factory, 'v4');
    const store = await openTrustStore({ name: 'v4', indexedDB: factory });
    const got = await store.getSkill(ORIGIN_A, archiveRecord.url, archiveRecord.digestLf);
    expect(got?.archive?.sha256).toBe('d'.repeat(64));
    expect(got?.archive?.filesDigest).toBeUndefined();
    expect((await store.getApproval(ORIGIN_A, archiveRecord.url))?.archive).toBeUndefined();
    store.close();
  });

  it('a migrated database and a fresh one have the same shape', async () => {
    const factory = new IDBFactory();
    await buildV4(factory, 'v4');
    (await openTrustStore({ name: 'v4', indexedDB: factory })).close();
    (await openTrustStore({ name: 'fresh', indexedDB: factory })).close();
    expect((await shapeOf(factory, 'v4')).shape).toEqual((await shapeOf(factory, 'fresh')).shape);
  });
});
