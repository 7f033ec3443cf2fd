// Runs in a browser page (bundled by store-page.ts): builds a trust database at schema 4 with the
// schema's own steps and records as version 4 wrote them, opens it with the current store (the v5
// migration runs), and reports what the page sees.
import { wrap } from 'idb';
import { openTrustStore } from '../../../lib/store/idb-store';
import { upgrade, type UpgradeDb, type UpgradeTx } from '../../../lib/store/schema';

const ORIGIN = 'https://a.example';
const enc = new TextEncoder();

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function buildV4(name: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open(name, 4);
    r.onupgradeneeded = (e) => {
      void upgrade(wrap(r.result) as unknown as UpgradeDb, e.oldVersion, e.newVersion, wrap(r.transaction as IDBTransaction) as unknown as UpgradeTx).catch(() => undefined);
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const tx = db.transaction(['skills', 'approvals'], 'readwrite');
  const skills = tx.objectStore('skills');
  skills.put({ origin: ORIGIN, url: `${ORIGIN}/a/SKILL.md`, digestLf: 'a'.repeat(64), digestRaw: 'a'.repeat(64), bytes: new Uint8Array(50), storedAt: 10, size: 50 });
  skills.put({
    origin: ORIGIN,
    url: `${ORIGIN}/r.zip`,
    digestLf: 'c'.repeat(64),
    digestRaw: 'c'.repeat(64),
    bytes: enc.encode('# r\n'),
    storedAt: 20,
    size: 34,
    archive: {
      sha256: 'd'.repeat(64),
      format: 'zip',
      entries: [
        { path: 'SKILL.md', size: 4, type: 'file' },
        { path: 'run.sh', size: 30, type: 'file' },
      ],
      files: [{ path: 'run.sh', bytes: new Uint8Array(30) }],
    },
  });
  tx.objectStore('approvals').put({
    origin: ORIGIN,
    url: `${ORIGIN}/r.zip`,
    digestLf: 'c'.repeat(64),
    digestRaw: 'c'.repeat(64),
    keyFingerprint: null,
    statusAtApproval: 'verified',
    name: 'r',
    approvedAt: 21,
  });
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

async function readTotals(db: IDBDatabase): Promise<Record<string, number>> {
  const store = db.transaction('totals', 'readonly').objectStore('totals');
  const keys = (await req(store.getAllKeys())) as string[];
  const values = (await req(store.getAll())) as { bytes: number }[];
  return Object.fromEntries(keys.map((k, i) => [k, values[i]?.bytes ?? -1]));
}

async function migrate(name: string): Promise<unknown> {
  await buildV4(name);
  const store = await openTrustStore({ name });
  const legacy = await store.getSkill(ORIGIN, `${ORIGIN}/r.zip`, 'c'.repeat(64));
  const approval = await store.getApproval(ORIGIN, `${ORIGIN}/r.zip`);
  store.close();
  const db = await req(indexedDB.open(name));
  const tx = db.transaction(['skills'], 'readonly');
  const skills = tx.objectStore('skills');
  const result = {
    version: db.version,
    keyPath: skills.keyPath,
    indexes: Array.from(skills.indexNames).sort(),
    rawSkills: ((await req(skills.getAll())) as { url: string; filesKey: unknown; size?: unknown }[]).map((r) => ({ url: r.url, filesKey: r.filesKey, size: r.size })),
    totals: await readTotals(db),
    legacy: { found: legacy !== null, filesDigest: legacy?.archive?.filesDigest ?? null },
    approvalArchive: approval?.archive ?? null,
    afterWrite: {} as Record<string, number>,
  };
  db.close();
  // The migrated store takes a new write and keeps its totals.
  const again = await openTrustStore({ name });
  await again.putSkill({ origin: ORIGIN, url: `${ORIGIN}/b/SKILL.md`, digestLf: 'b'.repeat(64), digestRaw: 'b'.repeat(64), bytes: new Uint8Array(16), storedAt: 30 });
  again.close();
  const db2 = await req(indexedDB.open(name));
  result.afterWrite = await readTotals(db2);
  db2.close();
  return result;
}

(globalThis as unknown as { skillpinStoreMigration: (name: string) => Promise<unknown> }).skillpinStoreMigration = migrate;
